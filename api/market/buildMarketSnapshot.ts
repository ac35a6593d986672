import { type Address, zeroAddress } from "viem";
import type { IndexDb } from "../index/indexDb";
import { type IndexedChainHead, readChainHead } from "../index/readChainHead";
import { type PoolCandidateCounts, readPoolCandidateCounts } from "../index/readPoolCandidateCounts";
import { type IndexedPool, readPools } from "../index/readPools";
import { readPoolTicks } from "../index/readPoolTicks";
import { readSwapVolumes, type SwapVolume } from "../index/readSwapVolumes";
import { type IndexedTrackedToken, readTrackedTokens } from "../index/readTrackedTokens";
import { type MarketToken, priceTokens, type TokenPrice } from "./priceTokens";
import { type PoolQuote, quotePoolSafely } from "./quotePool";
import type { Ratio } from "./ratio";

/** Everything the market routes answer from, computed once per indexed block. */
export type MarketSnapshot = {
  head: IndexedChainHead;
  /** Verified tracked tokens (lowercase addresses). */
  tokens: MarketToken[];
  /** Tracked tokens the indexer refused at start (wrong decimals or symbol on chain): never priced. */
  refused: IndexedTrackedToken[];
  /** Whale thresholds of the verified tokens, in base units. */
  thresholds: (MarketToken & { whaleThreshold: bigint })[];
  /** The first block whose transfers are indexed: no whale window reaches before it. */
  transfersFromBlock: bigint;
  quotes: PoolQuote[];
  /** Indexed pools left unquoted: a token of theirs is not a verified tracked token (no decimals to read it by). */
  unquoted: number;
  /** The planned pools by outcome: `indexed` ones are the pools above, quoted or not. */
  candidates: PoolCandidateCounts;
  prices: Map<Address, TokenPrice>;
  /** Per pool address, what it swapped in the volume window. */
  volumes: Map<string, SwapVolume>;
  /** The volume window: swaps mined after `from`, up to the head's timestamp (unix seconds). */
  volumeWindow: { from: bigint; to: bigint };
  rules: MarketRules;
};

export type MarketRules = {
  /** Symbols of the stablecoins taken at exactly 1 USD as a pool's quote side. */
  parStableSymbols: readonly string[];
  minDepthUsd: Ratio;
  maxPools: number;
  volumeWindowSeconds: number;
};

/** How many times a read that straddled a new indexed block is started again before giving up. */
const consistentReadAttempts = 3;

/**
 * Reads the indexed market at one block and prices it. The tables are read in several queries while the
 * indexer writes: the head is read before and after, and a read that saw it move is made again, so a
 * snapshot never mixes two blocks. Null when the index has no head or kept moving.
 */
export async function buildMarketSnapshot(indexDb: IndexDb, chainId: number, rules: MarketRules): Promise<MarketSnapshot | null> {
  for (let attempt = 0; attempt < consistentReadAttempts; attempt++) {
    const head = await readChainHead(indexDb, chainId);
    if (!head) return null;
    const volumeFrom = head.timestamp - BigInt(rules.volumeWindowSeconds);
    const [tracked, pools, ticks, volumes, candidates] = await Promise.all([
      readTrackedTokens(indexDb, chainId),
      readPools(indexDb, chainId),
      readPoolTicks(indexDb, chainId),
      readSwapVolumes(indexDb, chainId, volumeFrom),
      readPoolCandidateCounts(indexDb, chainId),
    ]);
    const after = await readChainHead(indexDb, chainId);
    if (after?.hash !== head.hash) continue;
    const verified = tracked.filter((t) => t.status === "verified" && t.decimals !== null);
    const thresholds = verified.map((t) => ({
      symbol: t.symbol,
      address: t.address.toLowerCase() as Address,
      decimals: t.decimals as number,
      whaleThreshold: t.whaleThreshold,
    }));
    const tokens = thresholds.map(({ whaleThreshold, ...token }) => token);
    const weth = tokens.find((t) => t.symbol === "WETH")?.address ?? zeroAddress;
    const quotes = quotePools(pools, ticks, tokens, weth);
    const parStables = new Set(tokens.filter((t) => rules.parStableSymbols.includes(t.symbol)).map((t) => t.address));
    const prices = priceTokens({ tokens, quotes, weth, parStables, minDepthUsd: rules.minDepthUsd, maxPools: rules.maxPools });
    return {
      head,
      tokens,
      refused: tracked.filter((t) => t.status !== "verified"),
      thresholds,
      // Every tracked token's transfers come from one source, with one start block.
      transfersFromBlock: verified[0]?.transfersFromBlock ?? 0n,
      quotes,
      unquoted: pools.length - quotes.length,
      candidates,
      prices,
      volumes,
      volumeWindow: { from: volumeFrom, to: head.timestamp },
      rules,
    };
  }
  return null;
}

/** Quotes the pools whose two tokens' decimals are known (native ETH has WETH's). */
function quotePools(
  pools: IndexedPool[],
  ticks: Map<string, { tick: number; liquidityNet: bigint }[]>,
  tokens: MarketToken[],
  weth: Address,
): PoolQuote[] {
  const decimals = new Map<string, number>(tokens.map((t) => [t.address, t.decimals]));
  const wethDecimals = decimals.get(weth);
  if (wethDecimals !== undefined) decimals.set(zeroAddress, wethDecimals);
  const quotes: PoolQuote[] = [];
  for (const pool of pools) {
    const decimals0 = decimals.get(pool.token0.toLowerCase());
    const decimals1 = decimals.get(pool.token1.toLowerCase());
    if (decimals0 === undefined || decimals1 === undefined) continue;
    quotes.push(quotePoolSafely(pool, ticks.get(pool.address) ?? [], decimals0, decimals1));
  }
  return quotes;
}
