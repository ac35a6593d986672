import type { PaymentRequirements } from "@x402/core/types";
import { type Address, type Hex, parseUnits } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import { defaultX402PayerAuthorizationReads } from "../../api/env/EnvSchema";
import { routes } from "../../api/routes/routeList";
import { payerFundsOnChain } from "../../api/x402/readPayerFunds";
import { baseUsdc } from "../../base/baseChain";
import { type Backend, backendNames, openBackend } from "../access/support";
import { type ApiReplica, startApiReplica } from "../support/apiReplica";
import { devnetProvider, testClient, testManifest } from "../support/devnet";
import type { Fetcher } from "../support/payingFetch";
import { startRpcProxy } from "../support/rpcProxy";
import { signedPayment } from "../support/signedPayment";
import { giveUsdc, usdcBalance } from "../support/usdc";
import { testFacilitator, testX402Service } from "../support/x402";
import { challengeOf, fundedKey, paidApp } from "./support";

const manifest = testManifest();
const price = parseUnits(String(routes.audit.x402PriceUsd), 6);
// The audit route: its answer reads the chain with more patience than the gas route's 2 s probe, on a busy machine.
const auditPath = `/v1/audit/${manifest.contracts.diamond}`;
type Refusal = { error: string; reason?: string };
/** The reasons x402 gives a settlement the payer's balance can no longer cover (checked again, or simulated, before the broadcast). */
const balanceReasons = ["invalid_exact_evm_insufficient_balance", "invalid_exact_evm_transaction_simulation_failed"];

/** What a gas key sent since `since` (its nonce then): transactions mined and how many of them reverted. */
async function sentBy(gasKey: Hex, since: { nonce: number; block: bigint }) {
  const client = testClient(manifest);
  const address = privateKeyToAccount(gasKey).address;
  const sent = (await client.getTransactionCount({ address, blockTag: "latest" })) - since.nonce;
  let reverted = 0;
  const head = await client.getBlockNumber({ cacheTime: 0 });
  for (let n = since.block + 1n; n <= head; n++) {
    const block = await client.getBlock({ blockNumber: n, includeTransactions: true });
    for (const tx of block.transactions) {
      if (tx.from.toLowerCase() !== address.toLowerCase()) continue;
      if ((await client.getTransactionReceipt({ hash: tx.hash })).status === "reverted") reverted++;
    }
  }
  return { sent, reverted };
}

const markOf = async (gasKey: Hex) => ({
  nonce: await testClient(manifest).getTransactionCount({ address: privateKeyToAccount(gasKey).address, blockTag: "latest" }),
  block: await testClient(manifest).getBlockNumber({ cacheTime: 0 }),
});

/**
 * A fresh payer holding exactly one call's price signs 20 authorizations (distinct nonces) and sends
 * them at once through `targets` (round robin): at most one answer and one transfer (none only when the
 * machine lost the admitted payment), and the gas keys broadcast nothing that reverts; the others are
 * refused for the payer's balance and charge nothing.
 */
async function underfundedBurst(targets: Fetcher[], urlOf: (i: number) => string, gasKeys: Hex[], payTo: Address) {
  const payerKey = generatePrivateKey();
  const payer = privateKeyToAccount(payerKey).address;
  await giveUsdc(manifest, payer, price);
  const requirements = (await challengeOf(targets[0] as Fetcher, urlOf(0))).accepts[0] as PaymentRequirements;
  const payments = await Promise.all(Array.from({ length: 20 }, () => signedPayment(requirements, payerKey)));
  const marks = await Promise.all(gasKeys.map(markOf));
  const payToBefore = await usdcBalance(manifest, payTo);
  const answers = await Promise.all(
    payments.map(({ header }, i) =>
      (targets[i % targets.length] as Fetcher).fetch(new Request(urlOf(i), { headers: { "payment-signature": header } })),
    ),
  );
  const answered = answers.filter((r) => r.status === 200).length;
  const refusals = (await Promise.all(answers.filter((r) => r.status !== 200).map((r) => r.json()))) as Refusal[];
  const shown = JSON.stringify(refusals);
  // An admitted payment may be lost to a busy machine (its route answers 503, or its settlement fails before
  // any broadcast, the chain slow to read): it is given back, and a payment sent later may be admitted then.
  // A second payment admitted beside the first would fail its settlement for the payer's balance instead.
  const lostToLoad = (r: Refusal) =>
    r.error === "DATA_SOURCE_UNAVAILABLE" || (r.error === "PAYMENT_SETTLEMENT_FAILED" && !balanceReasons.includes(r.reason ?? ""));
  expect(answered, shown).toBeLessThanOrEqual(1);
  expect(answered + refusals.filter(lostToLoad).length, shown).toBeGreaterThanOrEqual(1);
  const sent = await Promise.all(gasKeys.map((key, i) => sentBy(key, marks[i] as { nonce: number; block: bigint })));
  expect(sent.reduce((sum, s) => sum + s.sent, 0)).toBe(answered);
  expect(sent.reduce((sum, s) => sum + s.reverted, 0)).toBe(0);
  for (const refusal of refusals.filter((r) => !lostToLoad(r))) {
    expect(refusal.error, shown).toBe("PAYMENT_INVALID");
    expect(["payer_balance_committed", "invalid_exact_evm_insufficient_balance"], shown).toContain(refusal.reason);
  }
  expect(await usdcBalance(manifest, payer)).toBe(price - BigInt(answered) * price);
  expect((await usdcBalance(manifest, payTo)) - payToBefore).toBe(BigInt(answered) * price);
}

describe.each(backendNames)("x402: a payer's concurrent payments are bounded by its balance on %s", (backendName) => {
  let backend: Backend;
  const payTo = privateKeyToAccount(generatePrivateKey()).address;
  beforeAll(async () => {
    backend = await openBackend(backendName);
  }, 60_000);
  afterAll(() => backend.close());

  /** An app over replica `n`'s view of the store, settling from a gas key of its own. */
  async function replica(n: number) {
    const gasKey = await fundedKey(manifest);
    const x402 = testX402Service(manifest, backend.replica(n), { facilitator: testFacilitator(manifest, gasKey), payTo });
    return { gasKey, app: (await paidApp(manifest, backend, x402)).app };
  }

  test("attack: 20 concurrent authorizations from a payer worth one call: one answer, one settlement, none reverted", async () => {
    const { gasKey, app } = await replica(0);
    await underfundedBurst([app], () => `http://127.0.0.1${auditPath}`, [gasKey], payTo);
  }, 120_000);

  test("attack: the same burst split over two replicas of one store, each with its own gas key: one settlement in all", async () => {
    const [a, b] = [await replica(1), await replica(2)];
    await underfundedBurst([a.app, b.app], () => `http://127.0.0.1${auditPath}`, [a.gasKey, b.gasKey], payTo);
  }, 120_000);

  test("attack: a provider lagging behind a settlement older than a minute does not hide it from the balance check", async () => {
    const payerKey = generatePrivateKey();
    await giveUsdc(manifest, privateKeyToAccount(payerKey).address, 2n * price);
    const beforeSettlement = Number(await testClient(manifest).getBlockNumber({ cacheTime: 0 }));
    const url = `http://127.0.0.1${auditPath}`;
    const { app } = await replica(3);
    const requirements = (await challengeOf(app, url)).accepts[0] as PaymentRequirements;
    const paid = await app.fetch(
      new Request(url, { headers: { "payment-signature": (await signedPayment(requirements, payerKey)).header } }),
    );
    expect(paid.status, await paid.clone().text()).toBe(200);
    // Read ten minutes later through a provider whose head stays before the settlement: it shows the balance of two calls.
    const proxy = await startRpcProxy(manifest.rpcUrl);
    try {
      await proxy.holdHead(beforeSettlement);
      const later = new Date(Date.now() + 10 * 60_000);
      const lagging = testX402Service(manifest, backend.store, {
        facilitator: testFacilitator(manifest, await fundedKey(manifest)),
        payTo,
        clock: () => later,
        readPayerFunds: payerFundsOnChain({
          providers: [devnetProvider(proxy.url, "lagging")],
          chainId: 8453,
          token: baseUsdc,
          maxAuthorizationReads: defaultX402PayerAuthorizationReads,
        }),
      });
      const route = { ...routes.audit, x402PriceUsd: routes.audit.x402PriceUsd as number };
      const validBefore = BigInt(Math.floor(Date.now() / 1000) + 3600);
      const admitted = [];
      for (let i = 0; i < 2; i++) {
        const { header } = await signedPayment(requirements, payerKey, { validBefore });
        admitted.push(await lagging.admit(route, { url, path: auditPath }, header));
      }
      // The balance holds one more call: the second is refused, the settlement counted although a provider cannot see it.
      expect(admitted.map((a) => (a.ok ? a.value.kind : (a.details as { reason?: string } | undefined)?.reason))).toEqual([
        "PAY",
        "payer_balance_committed",
      ]);
    } finally {
      await proxy.stop();
    }
  }, 120_000);
});

const databaseUrl = process.env.DATABASE_URL;

// Separate processes share only Postgres (PGlite cannot be shared across processes).
describe.skipIf(!databaseUrl)("x402: a payer's concurrent payments across two API processes on one Postgres", () => {
  let backend: Backend;
  const started: ApiReplica[] = [];
  beforeAll(async () => {
    backend = await openBackend("postgres");
  }, 60_000);
  afterAll(async () => {
    await Promise.all(started.map((r) => r.kill("SIGKILL")));
    await backend.close();
  });

  test("attack: 20 concurrent authorizations worth one call sent to both processes: one settlement in all, none reverted", async () => {
    const [row] = (await backend.sql("SELECT current_database() AS name")) as { name: string }[];
    const url = new URL(databaseUrl ?? "");
    url.pathname = `/${row?.name}`;
    const gasKeys = [await fundedKey(manifest), await fundedKey(manifest)];
    for (const gasKey of gasKeys) {
      started.push(
        await startApiReplica({
          DATABASE_URL: url.toString(),
          DEVNET_MANIFEST: inject("manifestPath"),
          X402_FACILITATOR_PRIVATE_KEY: gasKey,
          REDIS_URL: "",
        }),
      );
    }
    const remote: Fetcher = { fetch: (request) => fetch(request) };
    const urls = started.map((r) => `${r.baseUrl}${auditPath}`);
    await underfundedBurst([remote], (i) => urls[i % urls.length] as string, gasKeys, manifest.payoutAddress);
  }, 180_000);
});
