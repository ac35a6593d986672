import type { Address } from "viem";
import type { IndexDb } from "../index/indexDb";
import { readChainHead } from "../index/readChainHead";
import { readPairPools } from "../index/readPools";
import type { EthQuote } from "./EthQuote";
import { type IndexedPoolState, poolDepthInToken1, poolSpotPrice, type Ratio } from "./poolSpotPrice";

export type CreateEthQuoteParameters = {
  indexDb: IndexDb;
  chainId: number;
  weth: Address;
  usdc: Address;
  /** Pools with less USDC behind their price than this (base units) are left out as thin. */
  minDepthUsdc: bigint;
  /** The index must have seen a block this recently, else there is no live quote. */
  maxAgeSeconds: number;
  now?: () => Date;
};

/** How many of the deepest pools the median is taken over (the spec's token price basis). */
const deepestPools = 5;

/**
 * ETH's live price from the index: the median WETH/USDC spot price of the up-to-five deepest indexed
 * pools (USDC depth at least `minDepthUsdc`), as wei per US dollar (1 USDC). Null, never a guess, when
 * the index is stale or no pool is deep enough.
 */
export function createEthQuote(p: CreateEthQuoteParameters): EthQuote {
  const now = p.now ?? (() => new Date());
  const [weth, usdc] = [p.weth.toLowerCase() as Address, p.usdc.toLowerCase() as Address];
  return {
    async weiPerUsd() {
      const head = await readChainHead(p.indexDb, p.chainId);
      if (!head || now().getTime() / 1000 - Number(head.timestamp) > p.maxAgeSeconds) return null;
      const pools = await readPairPools(p.indexDb, p.chainId, {
        tokens: [weth, usdc],
        kinds: ["uniswap-v2", "uniswap-v3", "slipstream", "aerodrome-volatile"],
      });
      const priced = pools
        .map((row) => usdcPerWei(row, weth))
        .filter((q): q is { price: Ratio; depth: bigint } => q !== null && q.depth >= p.minDepthUsdc)
        .sort((a, b) => (b.depth > a.depth ? 1 : b.depth < a.depth ? -1 : 0))
        .slice(0, deepestPools);
      if (priced.length === 0) return null;
      const median = medianRatio(priced.map((q) => q.price));
      // 1 USD = 10^6 USDC base units; wei = 10^6 / (USDC base units per wei).
      return {
        wei: (10n ** 6n * median.den) / median.num,
        observedAt: new Date(Number(head.timestamp) * 1000).toISOString(),
        source: `median of ${priced.length} deepest indexed WETH/USDC pools at block ${head.number}`,
      };
    },
  };
}

/** USDC base units per wei in one pool, and the USDC behind that price. */
function usdcPerWei(row: IndexedPoolState, weth: Address): { price: Ratio; depth: bigint } | null {
  const wethIsToken0 = row.token0.toLowerCase() === weth;
  const price = poolSpotPrice(row, wethIsToken0 ? 18 : 6, wethIsToken0 ? 6 : 18);
  if (!price || price.num === 0n) return null;
  if (wethIsToken0) return { price, depth: poolDepthInToken1(row) };
  // USDC is token0: invert the price, and the USDC depth is the token0 side.
  const depth = row.sqrtPriceX96 !== null && row.liquidity !== null ? (row.liquidity << 96n) / row.sqrtPriceX96 : (row.reserve0 ?? 0n);
  return { price: { num: price.den, den: price.num }, depth };
}

function medianRatio(ratios: Ratio[]): Ratio {
  const sorted = [...ratios].sort((a, b) => (a.num * b.den < b.num * a.den ? -1 : a.num * b.den > b.num * a.den ? 1 : 0));
  const mid = Math.floor(sorted.length / 2);
  const upper = sorted[mid] as Ratio;
  if (sorted.length % 2 === 1) return upper;
  const lower = sorted[mid - 1] as Ratio;
  return { num: lower.num * upper.den + upper.num * lower.den, den: 2n * lower.den * upper.den };
}
