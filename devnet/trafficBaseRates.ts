import { setTimeout as sleep } from "node:timers/promises";
import { createDevnetClient } from "./client";
import type { Manifest } from "./manifest";
import { createPlanner } from "./traffic";
import { createUnlockedBatchSender, type TrafficCall } from "./trafficSender";

/** What the Base mode sends each block (fractions accumulate: 0.5 is one every second block). */
export type BlockRates = {
  /** Swaps in the seeded pools (V4 pools of tracked tokens included), each of $100-20,000. */
  swapsPerBlock: number;
  /** Plain transfers of tracked tokens, each of $10-10,000, on top of the two each swap emits. */
  transfersPerBlock: number;
  /** USDC payments to the payout address (paid calls of the service). */
  paymentsPerBlock: number;
  /** Every this many blocks one whale transfer, and every `positionEveryBlocks` a step of the position cycle. */
  whaleEveryBlocks: number;
  positionEveryBlocks: number;
};

/**
 * Base's activity over what the indexer follows, per 2-second block (43,200 a day), from public figures:
 * - Base carried 6-9 million transactions a day in 2024-2025: 6.1 million on 12 October 2024 (IntoTheBlock,
 *   https://gov.capital/base-network-breaks-transaction-records-shaping-a-new-era-in-ethereums-layer-2-ecosystem),
 *   an all-time high of 9.2 million (https://cryptofortress.app/base-network-1-million-transactions-record):
 *   140-210 transactions a block, of every kind.
 * - Its DEXes traded $16.5 billion in the week to 22 January 2026 (DefiLlama, via
 *   https://cryptooneclick.com/defi/base-overtakes-ethereum-bnb-chain-in-dex-volumes-for-the-first-time.html),
 *   $2.4 billion a day, WETH/USDC the largest pair and Aerodrome 63-80% of the volume
 *   (https://basechain.news/protocol-review-aerodrome-turns-base-into-a-single). At $2,000 a swap (most are
 *   bots' small arbitrage) that is 1.2 million swaps a day, 27 a block: 30 a block here, all of them in the
 *   indexed pools, which are the deepest of the tracked tokens' and carry most of that volume.
 * - USDC: Base moved over $100 billion of it in October 2024, 36% of all USDC movement, up to 98% of the
 *   transactions by bots (https://stablecoinflows.com/2025/10/24/tracking-usdc-base-flows-key-metrics-for-crypto-investors-in-2024).
 *   60 plain transfers of tracked tokens a block (2.6 million a day) besides the swaps' own 60: 120 tracked
 *   Transfer logs a block, most of a block's 140-210 transactions touching USDC or WETH.
 * - Payments to the service: one paid call every block (43,200 a day), far above what a new service earns,
 *   so the payments filter is measured at a bound.
 * Whale transfers and positions keep the default generator's pace.
 */
export const baseRates: BlockRates = {
  swapsPerBlock: 30,
  transfersPerBlock: 60,
  paymentsPerBlock: 1,
  whaleEveryBlocks: 10,
  positionEveryBlocks: 2,
};

/** Base's block gas limit is far above anvil's default 30 million; a block of `baseRates` takes more by its gas limits. */
const blockGasLimit = 1_000_000_000;

/**
 * The traffic generator at `rates` a block: from the manifest's traffic account (anvil signs), once per new
 * block, the block's swaps, transfers, payments, whale transfer and position step, sent as one JSON-RPC
 * batch so they land in the next block. Returns `stop`, which resolves once the loop has ended.
 */
export function startBaseRateTraffic(
  manifest: Manifest,
  rates: BlockRates = baseRates,
  log: (message: string) => void = (m) => console.warn(m),
): { stop(): Promise<void> } {
  const client = createDevnetClient(manifest.rpcUrl, manifest.accounts.traffic.privateKey);
  const plan = createPlanner(
    manifest,
    client,
    manifest.accounts.users.map((u) => u.address),
  );
  const send = createUnlockedBatchSender(manifest.rpcUrl, client.account.address, log);
  const carried = { swaps: 0, transfers: 0, payments: 0 };
  /** Whole items due this block, the fraction carried to the next. */
  const due = (kind: keyof typeof carried, rate: number) => {
    carried[kind] += rate;
    const whole = Math.floor(carried[kind]);
    carried[kind] -= whole;
    return whole;
  };
  const halt = new AbortController();

  const running = (async () => {
    await client.request({ method: "evm_setBlockGasLimit", params: [`0x${blockGasLimit.toString(16)}`] } as never);
    await send(await plan.approvals(client));
    let seen = await client.getBlockNumber({ cacheTime: 0 });
    for (let block = 1; !halt.signal.aborted; block++) {
      while (!halt.signal.aborted && (await client.getBlockNumber({ cacheTime: 0 })) === seen) await sleep(100);
      if (halt.signal.aborted) break;
      seen = await client.getBlockNumber({ cacheTime: 0 });
      const position = block % rates.positionEveryBlocks === 0 ? await plan.positions.next() : undefined;
      const calls: TrafficCall[] = [
        ...(position ? [position] : []),
        ...plan.swaps(due("swaps", rates.swapsPerBlock)),
        ...plan.transfers(due("transfers", rates.transfersPerBlock)),
        ...Array.from({ length: due("payments", rates.paymentsPerBlock) }, () => plan.payment(0.005 + Math.random() * 0.015)),
      ];
      if (block % rates.whaleEveryBlocks === 0) calls.push(plan.whale(block / rates.whaleEveryBlocks));
      await send(calls);
    }
  })().catch((error) => log(`traffic stopped: ${error instanceof Error ? error.message : String(error)}`));

  return {
    async stop() {
      halt.abort();
      await running;
    },
  };
}
