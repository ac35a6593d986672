import { decodePaymentRequiredHeader } from "@x402/core/http";
import type { PaymentRequirements } from "@x402/core/types";
import type { Hex } from "viem";
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import { defaultX402PayerAuthorizationReads } from "../../api/env/EnvSchema";
import { routes } from "../../api/routes/routeList";
import { verificationReads } from "../../api/x402/createInProcessFacilitator";
import { payerFundsReadsPerProvider } from "../../api/x402/readPayerFunds";
import { type Backend, openBackend } from "../access/support";
import { type ApiReplica, startApiReplica } from "../support/apiReplica";
import { testManifest } from "../support/devnet";
import { type RpcProxy, startRpcProxy } from "../support/rpcProxy";
import { signedPayment } from "../support/signedPayment";
import { committedPayer } from "./support";

/**
 * X402_PAYER_AUTHORIZATION_READS as the service takes it: from the environment of an API process
 * (createServerApp), its chain reads counted by an RPC proxy in front of the devnet. A payer with more
 * payments in flight than the bound sends one more: the process configured with the bound reads that
 * many authorization states, no more; one left at the default reads all of them.
 */
const manifest = testManifest();
const databaseUrl = process.env.DATABASE_URL;
const gasPath = routes.gasFees.path;
/** The bound the configured process is given. */
const configuredReads = 4;
/** The payer's payments in flight: more than the configured bound, fewer than the default. */
const inFlight = configuredReads + 8;
/** Public providers each process reads through (two: the fewest that make a quorum). */
const providerCount = 2;

// Separate processes share only Postgres (PGlite cannot be shared across processes).
describe.skipIf(!databaseUrl)("X402_PAYER_AUTHORIZATION_READS set in an API process's environment", () => {
  let backend: Backend;
  const proxies: RpcProxy[] = [];
  const replicas: ApiReplica[] = [];
  /** An API process reading the devnet through a proxy of its own, with `env` besides. */
  async function apiProcess(env: Record<string, string>) {
    const [row] = (await backend.sql("SELECT current_database() AS name")) as { name: string }[];
    const url = new URL(databaseUrl ?? "");
    url.pathname = `/${row?.name}`;
    const proxy = await startRpcProxy(manifest.rpcUrl);
    proxies.push(proxy);
    const providerUrls = Array.from({ length: providerCount }, (_, i) => `${proxy.url}/public-${i + 1}`);
    const replica = await startApiReplica({
      DATABASE_URL: url.toString(),
      DEVNET_MANIFEST: inject("manifestPath"),
      DEVNET_PROVIDER_URLS: providerUrls.join(","),
      // The sampler's first reads come at start; none during the requests counted.
      HEALTH_SAMPLE_INTERVAL_SECONDS: "3600",
      REDIS_URL: "",
      ...env,
    });
    replicas.push(replica);
    return { proxy, get: (headers: Record<string, string> = {}) => fetch(`${replica.baseUrl}${gasPath}`, { headers }) };
  }
  type ApiProcess = Awaited<ReturnType<typeof apiProcess>>;

  beforeAll(async () => {
    backend = await openBackend("postgres");
  }, 60_000);
  afterAll(async () => {
    await Promise.all(replicas.map((r) => r.kill("SIGKILL")));
    await Promise.all(proxies.map((p) => p.stop()));
    await backend?.close();
  });

  /** One more payment of `payer` to `api`: its refusal, and the reads it caused by method. */
  async function payOnce(api: ApiProcess, terms: PaymentRequirements, payer: Hex) {
    const { header } = await signedPayment(terms, payer);
    const before = await api.proxy.counts();
    const res = await api.get({ "payment-signature": header });
    const after = await api.proxy.counts();
    const byMethod = Object.fromEntries(Object.entries(after).map(([method, n]) => [method, n - (before[method] ?? 0)]));
    const reads = Object.values(byMethod).reduce((sum, n) => sum + n, 0);
    return { body: await res.json(), reads, calls: byMethod.eth_call ?? 0, byMethod };
  }

  test("bound: the process configured with 4 reads 4 authorization states a provider where the default reads all 12", async () => {
    const [bounded, unbounded] = [await apiProcess({ X402_PAYER_AUTHORIZATION_READS: String(configuredReads) }), await apiProcess({})];
    expect(defaultX402PayerAuthorizationReads).toBeGreaterThan(inFlight);
    // The challenge: each process asks its facilitator what it supports once, before the reads counted.
    const challenges = await Promise.all([bounded.get(), unbounded.get()]);
    const terms = decodePaymentRequiredHeader(challenges[0]?.headers.get("payment-required") as string).accepts[0] as PaymentRequirements;
    const payer = await committedPayer(manifest, backend.store, terms, inFlight);

    const withBound = await payOnce(bounded, terms, payer);
    const withDefault = await payOnce(unbounded, terms, payer);
    for (const paid of [withBound, withDefault]) {
      expect(paid.body, JSON.stringify(paid.byMethod)).toMatchObject({ error: "PAYMENT_INVALID", reason: "payer_balance_committed" });
    }
    // Everything else in the two admissions is the same: the difference is the states not read, at each provider.
    expect(withDefault.calls - withBound.calls, JSON.stringify([withBound.byMethod, withDefault.byMethod])).toBe(
      providerCount * (inFlight - configuredReads),
    );
    expect(withBound.reads, JSON.stringify(withBound.byMethod)).toBeLessThanOrEqual(
      verificationReads + providerCount * (payerFundsReadsPerProvider + configuredReads),
    );
  }, 180_000);
});
