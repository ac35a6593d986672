import { encodeEventTopics, erc20Abi, type Hex, type PublicClient, pad } from "viem";
import { AerodromePoolAbi } from "../abis/AerodromePoolAbi";
import { UniswapV2PairAbi } from "../abis/UniswapV2PairAbi";
import { UniswapV3PoolAbi } from "../abis/UniswapV3PoolAbi";
import { UniswapV4PoolManagerAbi } from "../abis/UniswapV4PoolManagerAbi";
import type { Manifest } from "../devnet/manifest";

/** What the chain carried for the indexer in a span of blocks, a block on average. */
export type BlockActivity = { swapsPerBlock: number; trackedTransfersPerBlock: number; paymentsPerBlock: number };

/** Blocks read in one `eth_getLogs`: a block at Base's rates holds a few hundred logs. */
const logSpan = 25n;
const swapTopics = new Set<Hex>(
  [
    encodeEventTopics({ abi: UniswapV2PairAbi, eventName: "Swap" })[0],
    encodeEventTopics({ abi: UniswapV3PoolAbi, eventName: "Swap" })[0],
    encodeEventTopics({ abi: AerodromePoolAbi, eventName: "Swap" })[0],
    encodeEventTopics({ abi: UniswapV4PoolManagerAbi, eventName: "Swap" })[0],
  ].map((topic) => topic.toLowerCase() as Hex),
);
const transferTopic = encodeEventTopics({ abi: erc20Abi, eventName: "Transfer" })[0].toLowerCase();

/**
 * Swaps (every DEX kind), Transfers of the manifest's tokens, and USDC payments to its payout address in
 * blocks `from` to `to` (inclusive), counted from the chain's logs, a block on average.
 */
export async function countBlockActivity(
  chain: Pick<PublicClient, "getLogs">,
  manifest: Manifest,
  from: bigint,
  to: bigint,
): Promise<BlockActivity> {
  const tracked = new Set(Object.values(manifest.tokens).map((t) => t.address.toLowerCase()));
  const usdc = manifest.tokens.USDC?.address.toLowerCase();
  const payout = pad(manifest.payoutAddress).toLowerCase();
  const counts = { swaps: 0, transfers: 0, payments: 0 };
  for (let start = from; start <= to; start += logSpan) {
    const end = start + logSpan - 1n < to ? start + logSpan - 1n : to;
    for (const log of await chain.getLogs({ fromBlock: start, toBlock: end })) {
      const topic = log.topics[0]?.toLowerCase();
      if (topic && swapTopics.has(topic as Hex)) counts.swaps++;
      if (topic !== transferTopic || !tracked.has(log.address.toLowerCase())) continue;
      counts.transfers++;
      if (log.address.toLowerCase() === usdc && log.topics[2]?.toLowerCase() === payout) counts.payments++;
    }
  }
  const blocks = Math.max(1, Number(to - from + 1n));
  const perBlock = (n: number) => Number((n / blocks).toFixed(2));
  return {
    swapsPerBlock: perBlock(counts.swaps),
    trackedTransfersPerBlock: perBlock(counts.transfers),
    paymentsPerBlock: perBlock(counts.payments),
  };
}
