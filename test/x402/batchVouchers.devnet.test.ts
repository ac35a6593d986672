import { decodePaymentRequiredHeader, decodePaymentResponseHeader } from "@x402/core/http";
import { type Hex, parseEventLogs } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { X402Service } from "../../api/x402/createX402Service";
import { batchEscrowAddress } from "../../api/x402/escrowCodeCheck";
import { baseNetwork, baseUsdc } from "../../base/baseChain";
import type { Manifest } from "../../devnet/manifest";
import { type Backend, backendNames, claimFreeKey, openBackend } from "../access/support";
import { batchPayingFetch, escrowAbi, newPayer, price } from "../support/batchPayer";
import { privateFork, testClient } from "../support/devnet";
import { usdcBalance } from "../support/usdc";
import { batchService, fetcher, origin, path, storedVouchers } from "./batchSupport";

/** Paid calls after the first (which deposits): each one a voucher. */
const vouchers = 20;

// A private fork of the seeded devnet that mines a block a second, as Base mines one every two: a call that
// waited for a block would take about half a second more, which the latency ratios below would show.
const fork = privateFork({ blockSeconds: 1 });
let manifest: Manifest;
beforeAll(() => {
  manifest = fork.manifest();
});

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
};

describe.each(backendNames)("x402 batch-settlement vouchers, app store on %s", (backendName) => {
  let backend: Backend;
  beforeAll(async () => {
    backend = await openBackend(backendName);
  }, 60_000);
  afterAll(() => backend?.close());

  test("behavior: the official client pays 20 calls with vouchers answered without a block, stored, then claimed in one transaction", async () => {
    const payTo = privateKeyToAccount(generatePrivateKey()).address;
    const { x402, gasKey, app, marketIndex } = await batchService(manifest, backend, payTo);
    const payerKey = await newPayer(manifest, BigInt(vouchers + 1));
    const payer = privateKeyToAccount(payerKey).address;
    const { pay, sent, paidMs } = batchPayingFetch(manifest, fetcher(app), payerKey, vouchers + 1);
    const { apiKey, keyId } = await claimFreeKey(app);
    // A free key's daily credits are 10: this one is a paid plan's, for the comparison calls.
    await backend.sql("UPDATE app.api_key SET tier = 'PRO', expires_at = now() + interval '31 days' WHERE id = $1", [keyId]);
    const keyed = () => app.fetch(new Request(`${origin}${path}`, { headers: { "x-api-key": apiKey } }));
    const gasKeyNonce = () => testClient(manifest).getTransactionCount({ address: gasKey });

    // The first call opens the channel: a deposit, mined before its answer (a block's wait, as an exact payment's).
    await marketIndex.syncHead();
    const first = await pay(`${origin}${path}`);
    expect(first.status, await first.clone().text()).toBe(200);
    expect(decodePaymentResponseHeader(first.headers.get("payment-response") as string)).toMatchObject({
      success: true,
      network: baseNetwork,
      extra: { chargedAmount: price.toString(), channelState: { chargedCumulativeAmount: price.toString() } },
    });
    const nonceAfterDeposit = await gasKeyNonce();

    // Each voucher call beside the same call with the key, interleaved: their latencies as ratios, the paid
    // request's alone (the one carrying the voucher) and the client's whole call (its unpaid request's 402 first).
    const keyedMs: number[] = [];
    const paidRatios: number[] = [];
    const callRatios: number[] = [];
    for (let call = 1; call <= vouchers; call++) {
      await marketIndex.syncHead();
      const keyedStart = performance.now();
      const plain = await keyed();
      keyedMs.push(performance.now() - keyedStart);
      expect(plain.status, await plain.clone().text()).toBe(200);
      const callStart = performance.now();
      const paid = await pay(`${origin}${path}`);
      callRatios.push((performance.now() - callStart) / (keyedMs.at(-1) as number));
      paidRatios.push((paidMs.at(-1) as number) / (keyedMs.at(-1) as number));
      expect(paid.status, await paid.clone().text()).toBe(200);
      const cumulative = price * BigInt(call + 1);
      expect(decodePaymentResponseHeader(paid.headers.get("payment-response") as string)).toMatchObject({
        success: true,
        transaction: "",
        extra: { chargedAmount: price.toString(), channelState: { chargedCumulativeAmount: cumulative.toString() } },
      });
    }
    // No voucher sent a transaction: each was checked off-chain and charged in the app store alone.
    expect(await gasKeyNonce()).toBe(nonceAfterDeposit);
    expect(sent).toHaveLength(vouchers + 1);
    const depositRatio = (paidMs[0] as number) / median(keyedMs);
    const figures = (ratios: number[]) => ({ median: Number(median(ratios).toFixed(2)), max: Number(Math.max(...ratios).toFixed(2)) });
    console.info(
      JSON.stringify({
        backend: backendName,
        voucherCalls: vouchers,
        paidRequestToKeyed: figures(paidRatios),
        clientCallToKeyed: figures(callRatios),
        depositRequestToKeyed: Number(depositRatio.toFixed(2)),
      }),
    );
    // A block is a second here and a keyed call some milliseconds: the deposit, which waits for its block, takes tens
    // of keyed calls; a voucher that waited for one would too (measured: vouchers 4-7, the deposit 30-60).
    expect(median(paidRatios) * 3).toBeLessThan(depositRatio);

    // Every voucher is in the store: one channel, cumulative amounts 1..21 calls' price, each for the route it paid.
    const stored = await storedVouchers(backend, payer);
    const channelId = stored[0]?.channel_id as Hex;
    expect(stored).toEqual(
      Array.from({ length: vouchers + 1 }, (_, i) => ({
        channel_id: channelId,
        cumulative_amount: (price * BigInt(i + 1)).toString(),
        amount: price.toString(),
        route: "GET /v1/token/price/{symbol}",
        answer_status: 200,
      })),
    );

    // A voucher sent again is refused: its cumulative amount was accepted; the challenge tells the client the channel's state.
    const replay = await app.fetch(new Request(`${origin}${path}`, { headers: { "payment-signature": sent.at(-1) as string } }));
    expect(replay.status).toBe(402);
    expect(await replay.json()).toMatchObject({
      error: "PAYMENT_INVALID",
      reason: "invalid_batch_settlement_evm_cumulative_amount_mismatch",
    });
    const corrective = decodePaymentRequiredHeader(replay.headers.get("payment-required") as string);
    expect(corrective.accepts.find((terms) => terms.scheme === "batch-settlement")?.extra).toMatchObject({
      channelState: { channelId, chargedCumulativeAmount: (price * BigInt(vouchers + 1)).toString() },
    });
    expect(await storedVouchers(backend, payer)).toHaveLength(vouchers + 1);

    // One claim transaction, sent by our facilitator and authorized by our receiverAuthorizer, claims them all.
    const manager = (x402.batchScheme as NonNullable<X402Service["batchScheme"]>).createChannelManager(
      x402.facilitator,
      baseNetwork,
      baseUsdc,
    );
    const claims = await manager.claim();
    expect(claims).toEqual([{ vouchers: 1, transaction: expect.any(String) }]);
    const chain = testClient(manifest);
    const receipt = await chain.getTransactionReceipt({ hash: claims[0]?.transaction as Hex });
    const earned = price * BigInt(vouchers + 1);
    const [claimed] = parseEventLogs({ abi: escrowAbi, eventName: "Claimed", logs: receipt.logs });
    expect(claimed?.args).toMatchObject({ channelId, claimAmount: earned, newTotalClaimed: earned });
    const [balance, totalClaimed] = await chain.readContract({
      address: batchEscrowAddress,
      abi: escrowAbi,
      functionName: "channels",
      args: [channelId],
    });
    expect({ balance, totalClaimed }).toEqual({ balance: earned, totalClaimed: earned });
    // Swept to the payout address, exact to the unit; the payer paid the deposit and no gas.
    await manager.settle();
    expect(await usdcBalance(manifest, payTo)).toBe(earned);
    expect(await usdcBalance(manifest, payer)).toBe(0n);
    console.info(JSON.stringify({ backend: backendName, claimedVouchers: vouchers + 1, claimTransactionGasUsed: Number(receipt.gasUsed) }));
  }, 180_000);

  test("error: an answer that is not a 2xx charges nothing and stores no voucher; a malformed voucher is a 402, never a 500", async () => {
    const { app, marketIndex } = await batchService(manifest, backend, privateKeyToAccount(generatePrivateKey()).address);
    const payerKey = await newPayer(manifest, 10n);
    const payer = privateKeyToAccount(payerKey).address;
    const { pay, sent } = batchPayingFetch(manifest, fetcher(app), payerKey, 10);
    await marketIndex.syncHead();
    expect((await pay(`${origin}${path}`)).status).toBe(200);
    // An unknown symbol is a 404 after the voucher was admitted: its reservation is given back, nothing charged.
    const unknown = await pay(`${origin}/v1/token/price/NOPE`);
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get("payment-response")).toBeNull();
    expect(await storedVouchers(backend, payer)).toHaveLength(1);
    // The channel is free at once (not held until the reservation expires): the next voucher pays for the next call.
    await marketIndex.syncHead();
    expect((await pay(`${origin}${path}`)).status).toBe(200);
    expect((await storedVouchers(backend, payer)).map((v) => v.cumulative_amount)).toEqual([price.toString(), (price * 2n).toString()]);

    const voucher = JSON.parse(Buffer.from(sent.at(-1) as string, "base64").toString("utf8")) as { payload: Record<string, unknown> };
    for (const payload of [{ ...voucher.payload, type: "refund" }, { ...voucher.payload, voucher: { channelId: "0x01" } }, {}]) {
      const header = Buffer.from(JSON.stringify({ ...voucher, payload })).toString("base64");
      const res = await app.fetch(new Request(`${origin}${path}`, { headers: { "payment-signature": header } }));
      expect(res.status).toBe(402);
      expect(await res.json()).toMatchObject({ error: "PAYMENT_INVALID", reason: "payment_signature_not_batch_settlement_evm_v2" });
    }
    expect(await storedVouchers(backend, payer)).toHaveLength(2);
  }, 120_000);

  test("error: a voucher the store cannot keep is a 503 PERSISTENCE_UNAVAILABLE, nothing charged; the next voucher is served", async () => {
    const { app, marketIndex } = await batchService(manifest, backend, privateKeyToAccount(generatePrivateKey()).address);
    const payerKey = await newPayer(manifest, 10n);
    const payer = privateKeyToAccount(payerKey).address;
    const { pay } = batchPayingFetch(manifest, fetcher(app), payerKey, 10);
    await marketIndex.syncHead();
    expect((await pay(`${origin}${path}`)).status).toBe(200);
    // The store lost on the one write that keeps a voucher, so the charge's transaction fails with it: Postgres's
    // connection ended by the server (the store's own admin_shutdown), PGlite's write failing with that code.
    const loseStore =
      backendName === "postgres"
        ? "PERFORM pg_terminate_backend(pg_backend_pid()); RETURN NEW;"
        : "RAISE EXCEPTION 'voucher store down' USING ERRCODE = 'admin_shutdown';";
    await backend.sql(`CREATE FUNCTION app.refuse_voucher() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN ${loseStore} END $$`);
    await backend.sql("CREATE TRIGGER refuse_voucher BEFORE INSERT ON app.x402_voucher FOR EACH ROW EXECUTE FUNCTION app.refuse_voucher()");
    try {
      await marketIndex.syncHead();
      const refused = await pay(`${origin}${path}`);
      expect(refused.status).toBe(503);
      expect(await refused.json()).toMatchObject({ error: "PERSISTENCE_UNAVAILABLE" });
    } finally {
      await backend.sql("DROP TRIGGER refuse_voucher ON app.x402_voucher");
      await backend.sql("DROP FUNCTION app.refuse_voucher()");
    }
    const [channel] = (await backend.sql(
      "SELECT charged_cumulative_amount::text AS charged, pending_id FROM app.x402_channel WHERE lower(payer) = lower($1)",
      [payer],
    )) as { charged: string; pending_id: string | null }[];
    expect(channel).toEqual({ charged: price.toString(), pending_id: null });
    // Nothing was charged, so the client's next voucher (the same cumulative amount) pays for the next call.
    await marketIndex.syncHead();
    expect((await pay(`${origin}${path}`)).status).toBe(200);
    expect((await storedVouchers(backend, payer)).map((v) => v.cumulative_amount)).toEqual([price.toString(), (price * 2n).toString()]);
  }, 120_000);

  test("behavior: two app instances on one store never accept a voucher's cumulative amount twice", async () => {
    const payTo = privateKeyToAccount(generatePrivateKey()).address;
    const replicas = [await batchService(manifest, backend, payTo), await batchService(manifest, backend, payTo, { replica: 1 })];
    const apps = replicas.map((r) => r.app);
    const payerKey = await newPayer(manifest, 12n);
    const rounds = 10;
    const outcomes: number[][] = [];
    // Each request the client sends goes to both instances at once; the client is answered the one that was served.
    const { pay } = batchPayingFetch(
      manifest,
      async (request) => {
        const answers = await Promise.all(apps.map((app) => app.fetch(request.clone())));
        outcomes.push(answers.map((a) => a.status));
        return answers.find((a) => a.status === 200) ?? (answers[0] as Response);
      },
      payerKey,
      12,
    );
    for (let round = 0; round <= rounds; round++) {
      await replicas[0]?.marketIndex.syncHead();
      await replicas[1]?.marketIndex.syncHead();
      const res = await pay(`${origin}${path}`);
      expect(res.status, await res.clone().text()).toBe(200);
    }
    // Each payment the client sent was served by exactly one of the two instances (the deposit included).
    const paid = outcomes.filter((statuses) => statuses.includes(200));
    expect(paid).toHaveLength(rounds + 1);
    for (const statuses of paid) expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    const stored = await storedVouchers(backend, privateKeyToAccount(payerKey).address);
    expect(new Set(stored.map((v) => v.channel_id)).size).toBe(1);
    expect(stored.map((v) => v.cumulative_amount)).toEqual(
      Array.from({ length: rounds + 1 }, (_, i) => (price * BigInt(i + 1)).toString()),
    );
    // And one deposit reached the escrow, though both instances were sent it.
    const [balance] = await testClient(manifest).readContract({
      address: batchEscrowAddress,
      abi: escrowAbi,
      functionName: "channels",
      args: [stored[0]?.channel_id as Hex],
    });
    expect(balance).toBe(price * 12n);
  }, 180_000);
});
