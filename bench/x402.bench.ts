/**
 * x402 at agent speed: a paid `GET /v1/token/price/WETH` under `exact`, under `batch-settlement`, and the
 * same call with a key, against `npm start` as a user runs it (a devnet mining a block every
 * BENCH_BLOCK_SECONDS, 2 as Base; PGlite, or Postgres with DATABASE_URL), each payer a fresh devnet wallet
 * holding USDC and no ETH, paying through the official client (`@x402/fetch` with `@x402/evm`'s exact or
 * batch-settlement client scheme):
 *  - latency: BENCH_CALLS (100) sequential calls of each kind, interleaved (keyed, exact, batch; an untimed
 *    keyed call before the batch one computes the block that exact's settlement waited for), each timed
 *    as the agent sees it (the client's whole call: its unpaid request's 402, then the paid request), plus
 *    the request carrying the voucher alone; p50 and p99;
 *  - throughput: BENCH_PAYERS (4) payers calling at once for BENCH_SECONDS (10) under batch-settlement, then
 *    as many keyed callers, one call at a time each (a channel serves one request at a time): calls a second,
 *    and their ratio;
 *  - operator gas per paid call: the gas of the facilitator's transactions (the service's gas key) mined
 *    during the run, those to USDC (exact's transfers) over the exact calls, the others (deposits, then the
 *    claim job's claims at its default batch size, awaited up to BENCH_CLAIM_WAIT_SECONDS (90)) over the
 *    batch calls.
 * BENCH_SERVICE_URL and BENCH_SERVICE_MANIFEST: measure an `npm start` already running (bench/benchService.ts).
 * BENCH_CPU_PROF_DIR: the service's processes write V8 CPU profiles there (bench/cpuProfileSummary.ts reads them).
 * Tiny (the smoke test): BENCH_CALLS=2 BENCH_PAYERS=1 BENCH_SECONDS=1 BENCH_CLAIM_WAIT_SECONDS=0.
 * Plain script: `npm run bench:x402`. Last line: one JSON object, `x402Figures` in bench/benchFigures.ts.
 */

import { decodePaymentResponseHeader } from "@x402/core/http";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { wrapFetchWithPayment, x402Client } from "@x402/fetch";
import type { Address, Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { batchEscrowAddress } from "../api/x402/escrowCodeCheck";
import { baseNetwork, baseUsdc } from "../base/baseChain";
import { type Manifest, readManifest } from "../devnet/manifest";
import { batchPayingFetch, escrowAbi, newPayer } from "../test/support/batchPayer";
import { testClient } from "../test/support/testClient";
import { printFigures, x402Figures } from "./benchFigures";
import { type BenchService, benchService, outsideService } from "./benchService";
import { buyKey } from "./buyKey";
import { loadSettings } from "./loadSettings";
import { median } from "./median";
import { percentile } from "./percentile";

const path = "/v1/token/price/WETH";
const calls = Number(process.env.BENCH_CALLS ?? 100);
const payers = Number(process.env.BENCH_PAYERS ?? 4);
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const claimWaitSeconds = Number(process.env.BENCH_CLAIM_WAIT_SECONDS ?? 90);
const blockSeconds = process.env.BENCH_BLOCK_SECONDS ?? "2";
const { cpuProfileDir } = loadSettings;
if (outsideService && (process.env.BENCH_BLOCK_SECONDS || cpuProfileDir))
  throw new Error("BENCH_BLOCK_SECONDS and BENCH_CPU_PROF_DIR need a service started here: unset BENCH_SERVICE_URL");

let service: BenchService | undefined;
try {
  service = await benchService({
    DEVNET_BLOCK_TIME: blockSeconds,
    ...(cpuProfileDir ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${cpuProfileDir}` } : {}),
  });
  const manifest = readManifest(service.manifestPath);
  const url = `${service.baseUrl}${path}`;
  const chain = testClient(manifest);
  const firstBlock = await chain.getBlockNumber({ cacheTime: 0 });
  const apiKey = await buyKey(service.baseUrl, manifest, "PRO", 0);
  const keyed = async () => {
    const res = await fetch(url, { headers: { "x-api-key": apiKey } });
    if (res.status !== 200) throw new Error(`keyed: ${res.status} ${await res.text()}`);
  };

  // One payer of each scheme for the latency rounds, funded for exactly its calls (and the batch one's deposit).
  const exactPay = exactPayingFetch(await newPayer(manifest, BigInt(calls)));
  const batchPayer = batchPayingFetch(manifest, (r) => fetch(r), await newPayer(manifest, BigInt(calls + 1)), calls + 1);
  const paid = async (pay: (input: string) => Promise<Response>) => {
    const res = await pay(url);
    if (res.status !== 200) throw new Error(`paid: ${res.status} ${await res.text()}`);
    return decodePaymentResponseHeader(res.headers.get("payment-response") as string);
  };
  const timed = async (into: number[], call: () => Promise<unknown>) => {
    const start = performance.now();
    await call();
    into.push(performance.now() - start);
  };
  // The batch payer's first call deposits (a block's wait, as an exact payment): untimed.
  await paid(batchPayer.pay);
  const keyedMs: number[] = [];
  const exactMs: number[] = [];
  const batchMs: number[] = [];
  for (let call = 0; call < calls; call++) {
    await timed(keyedMs, keyed);
    await timed(exactMs, () => paid(exactPay));
    // An exact payment's settlement waits for a block: the first call after it computes the new block's
    // market snapshot (11 ms of the batch call's p50 when it was always the batch call). Untimed, so no kind
    // pays for the block.
    await keyed();
    await timed(batchMs, () => paid(batchPayer.pay));
  }
  const voucherRequestMs = batchPayer.paidMs.slice(1);
  let batchCalls = calls + 1;

  // Throughput: `payers` channels at once (each deposits first, untimed), then as many keyed callers.
  const throughputPayers = await Promise.all(
    Array.from({ length: payers }, async () => {
      const payer = batchPayingFetch(manifest, (r) => fetch(r), await newPayer(manifest, 100_000n), 100_000);
      await paid(payer.pay);
      return payer;
    }),
  );
  batchCalls += payers;
  /** `payers` callers calling `call` one at a time each for `seconds`: the calls made and calls a second. */
  const callsPerSecond = async (call: (caller: number) => Promise<unknown>) => {
    const start = performance.now();
    const until = start + seconds * 1000;
    const counts = await Promise.all(
      Array.from({ length: payers }, async (_, caller) => {
        let done = 0;
        while (performance.now() < until) {
          await call(caller);
          done++;
        }
        return done;
      }),
    );
    const made = counts.reduce((a, b) => a + b, 0);
    // Over the time measured: calls in flight at `until` end after it.
    return { made, perSecond: (made * 1000) / (performance.now() - start) };
  };
  const keyedRps = (await callsPerSecond(keyed)).perSecond;
  const batchRun = await callsPerSecond((caller) => paid((throughputPayers[caller] as (typeof throughputPayers)[number]).pay));
  const batchRps = batchRun.perSecond;
  batchCalls += batchRun.made;

  const claims = await awaitClaim(manifest, firstBlock, claimWaitSeconds);
  const gas = await facilitatorGas(manifest, firstBlock);
  console.log(
    `${calls} calls each, interleaved; ${payers} payers for ${seconds} s; ${claims} claim transactions mined; backend ${service.databaseUrl ? "postgres" : "pglite"}`,
  );
  const round = (ms: number) => Number(ms.toFixed(1));
  printFigures(x402Figures, {
    exactP50Ms: round(median(exactMs)),
    exactP99Ms: round(percentile(exactMs, 99)),
    batchP50Ms: round(median(batchMs)),
    batchP99Ms: round(percentile(batchMs, 99)),
    keyedP50Ms: round(median(keyedMs)),
    keyedP99Ms: round(percentile(keyedMs, 99)),
    voucherRequestP50Ms: round(median(voucherRequestMs)),
    voucherRequestP99Ms: round(percentile(voucherRequestMs, 99)),
    gasPerCallExact: Math.round(Number(gas.exact) / calls),
    gasPerCallBatch: Math.round(Number(gas.batch) / batchCalls),
    batchThroughputRatio: Number((batchRps / keyedRps).toFixed(3)),
    keyedCallsPerSecond: Math.round(keyedRps),
    batchCallsPerSecond: Math.round(batchRps),
    claimTransactions: claims,
    blockSeconds: await measuredBlockSeconds(manifest),
    backend: service.databaseUrl ? "postgres" : "pglite",
  });
} finally {
  await service?.stop();
}

/** The official client paying with `exact` as `privateKey`, over the network. */
function exactPayingFetch(privateKey: Hex) {
  const client = new x402Client()
    .register(baseNetwork, new ExactEvmScheme(privateKeyToAccount(privateKey)))
    .setSpendControls({ maxAmountPerPayment: "$0.10" });
  return wrapFetchWithPayment(fetch, client);
}

/** Transactions of the service's gas key mined since `fromBlock` (exclusive). */
async function facilitatorTransactions(manifest: Manifest, fromBlock: bigint) {
  const chain = testClient(manifest);
  const facilitator = manifest.accounts.facilitator.address.toLowerCase();
  const head = await chain.getBlockNumber({ cacheTime: 0 });
  const sent: { hash: Hex; to: Address | null }[] = [];
  for (let n = fromBlock + 1n; n <= head; n++) {
    const block = await chain.getBlock({ blockNumber: n, includeTransactions: true });
    for (const tx of block.transactions) if (tx.from.toLowerCase() === facilitator) sent.push({ hash: tx.hash, to: tx.to });
  }
  return sent;
}

/** Waits up to `waitSeconds` for the claim job's first claim since `fromBlock`: the claim transactions mined by then. */
async function awaitClaim(manifest: Manifest, fromBlock: bigint, waitSeconds: number): Promise<number> {
  const chain = testClient(manifest);
  const until = Date.now() + waitSeconds * 1000;
  for (;;) {
    const logs = await chain.getContractEvents({
      address: batchEscrowAddress,
      abi: escrowAbi,
      eventName: "Claimed",
      fromBlock: fromBlock + 1n,
    });
    const claims = new Set(logs.map((l) => l.transactionHash)).size;
    if (claims > 0 || Date.now() >= until) return claims;
    await new Promise((r) => setTimeout(r, 1000));
  }
}

/**
 * Gas used by the service's gas key since `fromBlock`: to USDC (exact's transfers), and to anything else
 * (batch-settlement's deposits through their collectors, and claims to the escrow).
 */
async function facilitatorGas(manifest: Manifest, fromBlock: bigint): Promise<{ exact: bigint; batch: bigint }> {
  const chain = testClient(manifest);
  const totals = { exact: 0n, batch: 0n };
  for (const tx of await facilitatorTransactions(manifest, fromBlock)) {
    const { gasUsed } = await chain.getTransactionReceipt({ hash: tx.hash });
    if (tx.to?.toLowerCase() === baseUsdc.toLowerCase()) totals.exact += gasUsed;
    else totals.batch += gasUsed;
  }
  return totals;
}

/** The chain's seconds a block, over its last 10 blocks. */
async function measuredBlockSeconds(manifest: Manifest): Promise<number> {
  const chain = testClient(manifest);
  const head = await chain.getBlock({ blockTag: "latest" });
  const earlier = await chain.getBlock({ blockNumber: head.number - 10n });
  return Number(head.timestamp - earlier.timestamp) / 10;
}
