import type { PaymentRequirements } from "@x402/core/types";
import { generatePaymentId } from "@x402/extensions/payment-identifier";
import { type Address, erc20Abi, type Hex } from "viem";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { StatusReport } from "../../api/health/StatusReport";
import { baseUsdc } from "../../base/baseChain";
import { buyKey } from "../../bench/buyKey";
import { devnetAccount } from "../../devnet/accounts";
import { createDevnetClient } from "../../devnet/client";
import { type Manifest, readManifest } from "../../devnet/manifest";
import { listeningAddresses } from "../support/listeningAddresses";
import { type Fetcher, payingFetch } from "../support/payingFetch";
import { createThrowawayDatabase } from "../support/postgres";
import { signedPayment } from "../support/signedPayment";
import { type RunningService, startCluster, startReplica, waitForJson } from "../support/startService";
import { challengeOf } from "../x402/support";

const databaseUrl = process.env.DATABASE_URL;
/** Over the network, as a client reaches a replica. */
const remote: Fetcher = { fetch: (request) => fetch(request) };

/**
 * API replicas share the indexer's tables and the app store, so only on Postgres (PGlite cannot be shared
 * across processes). One cluster serves every test: its start (devnet, indexer, backfill) is most of this
 * file's time. x402 is paid across the indexer's process (npm start's) and a replica, each with a gas key of
 * its own; a replica started by hand beside the indexer is what the README's `ponder serve` beside
 * `npm start` is.
 */
describe.skipIf(!databaseUrl)("npm run start:cluster: an indexer and two API replicas on one Postgres", () => {
  let cluster: (RunningService & { replicaUrls: string[] }) | undefined;
  /** The replica the last test starts by hand, stopped before the cluster if the test could not. */
  let handStarted: RunningService | undefined;
  let clusterDatabaseUrl = "";
  let dropDatabase = async () => {};
  beforeAll(async () => {
    const db = await createThrowawayDatabase(databaseUrl ?? "");
    dropDatabase = db.drop;
    clusterDatabaseUrl = db.url;
    cluster = await startCluster(db.url, 2);
    for (const url of [cluster.baseUrl, ...cluster.replicaUrls])
      await waitForJson(`${url}/ready`, (status) => status === 200, 180_000, cluster);
  }, 420_000);
  afterAll(async () => {
    await handStarted?.stop();
    await cluster?.stop();
    await dropDatabase();
  });

  test("behavior: a key bought through one replica is served and charged by every process, from one index, under one public origin", async () => {
    const started = cluster as RunningService & { replicaUrls: string[] };
    const urls = [started.baseUrl, ...started.replicaUrls];
    const [indexer, first, second] = urls as [string, string, string];

    // Every process names the same public origin and the first replica as the fallback host.
    for (const url of urls) {
      const servers = ((await (await fetch(`${url}/v1/openapi.json`)).json()) as { servers: { url: string }[] }).servers;
      expect(servers.map((s) => s.url)).toEqual([indexer, first]);
    }
    // A devnet of the cluster's own: its users are not shared with other test files.
    const key = await buyKey(first, readManifest(started.manifestPath), "STARTER", 0);
    const remaining: number[] = [];
    for (const url of [second, indexer, first]) {
      const res = await fetch(`${url}/v1/token/price/WETH`, { headers: { "x-api-key": key } });
      expect(res.status, url).toBe(200);
      remaining.push(Number(res.headers.get("x-credits-remaining")));
    }
    // Leases are per process: each first charge of a process is a store write, so each sees the others' calls.
    expect(remaining[1]).toBeLessThan(remaining[0] ?? 0);
    expect(remaining[2]).toBeLessThan(remaining[1] ?? 0);
    const heads = await Promise.all(
      urls.map(async (url) => (await waitForJson<StatusReport>(`${url}/v1/status`, (s) => s === 200, 30_000)).body.index.headBlock ?? 0),
    );
    expect(Math.max(...heads) - Math.min(...heads)).toBeLessThanOrEqual(2);
  }, 120_000);

  /** The cluster's indexer process (its API, as npm start's) and its first replica, for the x402 tests. */
  const x402Processes = () => {
    const started = cluster as RunningService & { replicaUrls: string[] };
    return { service: started, replica: { baseUrl: started.replicaUrls[0] ?? "" } };
  };

  test("behavior: 50 concurrent copies of one payment sent to both: exactly one 200 and one transfer; a replay on either is refused", async () => {
    const { service, replica } = x402Processes();
    const manifest: Manifest = readManifest(service.manifestPath);
    const payer = manifest.accounts.users[4] as { address: Address; privateKey: Hex };
    const chain = createDevnetClient(manifest.rpcUrl, payer.privateKey);
    const paths = [service, replica].map((s) => `${s.baseUrl}/v1/audit/${manifest.contracts.diamond}`);

    for (const path of paths) {
      const res = await payingFetch(remote, payer.privateKey)(path);
      expect(res.status, await res.clone().text()).toBe(200);
    }

    const challenge = await challengeOf(remote, paths[0] as string);
    // The served API offers batch-settlement beside exact: the seeded escrow's code hash matches the manifest's.
    expect(challenge.accepts.map((terms) => terms.scheme)).toEqual(["exact", "batch-settlement"]);
    const requirements = challenge.accepts[0] as PaymentRequirements;
    const { header } = await signedPayment(requirements, payer.privateKey);
    const since = await chain.getBlockNumber();
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => fetch(paths[i % 2] as string, { headers: { "payment-signature": header } })),
    );
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 402)).toHaveLength(49);
    for (const refused of answers.filter((r) => r.status === 402)) {
      // A copy verified after the transfer is mined but before its record says SETTLED is refused by the chain's word.
      expect(["payment_in_progress", "payment_already_settled", "invalid_exact_evm_nonce_already_used"]).toContain(
        ((await refused.json()) as { reason: string }).reason,
      );
    }
    const transfers = await chain.getContractEvents({
      address: requirements.asset as Address,
      abi: erc20Abi,
      eventName: "Transfer",
      args: { from: payer.address },
      fromBlock: since + 1n,
    });
    expect(transfers).toHaveLength(1);
    for (const path of paths) {
      const again = await fetch(path, { headers: { "payment-signature": header } });
      expect(await again.json()).toMatchObject({ error: "PAYMENT_INVALID", reason: "payment_already_settled" });
    }
  }, 300_000);

  test("behavior: one payment-identifier id retried through both processes at once: one settlement, identical answers, another request under it 409", async () => {
    const { service, replica } = x402Processes();
    const manifest: Manifest = readManifest(service.manifestPath);
    const agent = manifest.accounts.users[13] as { address: Address; privateKey: Hex };
    const chain = createDevnetClient(manifest.rpcUrl, agent.privateKey);
    const paths = [service, replica].map((s) => `${s.baseUrl}/v1/audit/${manifest.contracts.diamond}`);
    const id = generatePaymentId();
    const since = await chain.getBlockNumber({ cacheTime: 0 });
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => payingFetch(remote, agent.privateKey, id)(paths[i % 2] as string)),
    );
    expect(answers.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(new Set(await Promise.all(answers.map((r) => r.text()))).size).toBe(1);
    const transfers = await chain.getContractEvents({
      address: baseUsdc,
      abi: erc20Abi,
      eventName: "Transfer",
      args: { from: agent.address },
      fromBlock: since + 1n,
    });
    expect(transfers).toHaveLength(1);
    const other = await payingFetch(remote, agent.privateKey, id)(`${replica.baseUrl}/v1/security/score/${manifest.contracts.diamond}`);
    expect(other.status).toBe(409);
    expect(await other.json()).toMatchObject({ error: "PAYMENT_ID_CONFLICT" });
  }, 120_000);

  test("behavior: a replica (ponder serve) started beside the indexer answers /v1 and the probes on its PORT; Ponder's routes are 404 JSON there; stopped, it closes both ports", async () => {
    // A gas key of its own (account 19), as a replica beside npm start is given one (X402_FACILITATOR_PRIVATE_KEY).
    const started = await startReplica(cluster as RunningService, {
      DATABASE_URL: clusterDatabaseUrl,
      X402_FACILITATOR_PRIVATE_KEY: devnetAccount(19).privateKey,
    });
    handStarted = started;
    const status = await waitForJson<StatusReport>(`${started.baseUrl}/v1/status`, (s) => s === 200, 60_000, started);
    expect(status.body.index.headBlock).not.toBeNull();
    expect((await fetch(`${started.baseUrl}/health`)).status).toBe(200);
    const ready = await fetch(`${started.baseUrl}/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: "READY" });
    const metrics = await fetch(`${started.baseUrl}/metrics`);
    expect(metrics.status).toBe(404);
    expect(await metrics.json()).toEqual({ error: "NOT_FOUND", message: "no route GET /metrics" });

    expect((await fetch(`http://127.0.0.1:${started.indexerPort}/ready`)).status).toBe(200);
    const bound = listeningAddresses(started.indexerPort);
    if (bound) expect(bound).toEqual(["127.0.0.1"]);

    handStarted = undefined;
    expect(await started.stop()).toBe(0);
    await expect(fetch(`${started.baseUrl}/health`)).rejects.toThrow();
    await expect(fetch(`http://127.0.0.1:${started.indexerPort}/health`)).rejects.toThrow();
  }, 180_000);
});
