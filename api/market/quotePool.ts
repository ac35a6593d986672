import { uniswapV4DynamicFeeFlag, uniswapV4SwapAffectingHookFlags } from "../../base/uniswapV4";
import type { IndexedPool } from "../index/readPools";
import { type BandDepth, concentratedBandDepth, concentratedHoldings, constantProductBandDepth, type TickLiquidity } from "./bandDepth";
import { poolSpotPrice } from "./poolSpotPrice";
import type { Ratio } from "./ratio";
import { stableCurveBandDepth } from "./stableCurveDepth";

/** Why a pool is listed but does not set a price. */
export type PoolFlag = "HOOK_CAN_CHANGE_SWAP" | "INCONSISTENT_TICKS" | "INCOMPLETE_TICKS" | "UNQUOTABLE" | "EMPTY";

/**
 * A Uniswap V4 pool whose hooks may change what a swap pays or receives: a swap permission in the hooks
 * address's low bits, or a dynamic fee (the hook may set it, up to 100%, at any time without one).
 */
export function hookCanChangeSwap(hooks: string | null, fee: number | null): boolean {
  if (hooks === null) return false;
  return (BigInt(hooks) & BigInt(uniswapV4SwapAffectingHookFlags)) !== 0n || (fee !== null && (fee & uniswapV4DynamicFeeFlag) !== 0);
}

/** One indexed pool as the market sees it: its spot price, ±2% depth and holdings in base units, and flags. */
export type PoolQuote = {
  pool: IndexedPool;
  /** token1 base units per token0 base unit; null for an empty pool. */
  spot: Ratio | null;
  depth: BandDepth | null;
  holdings: { amount0: bigint; amount1: bigint } | null;
  flags: PoolFlag[];
};

/** Quotes one pool from its indexed state (and, for concentrated pools, its initialized ticks, ascending). */
export function quotePool(pool: IndexedPool, ticks: readonly TickLiquidity[], decimals0: number, decimals1: number): PoolQuote {
  const flags: PoolFlag[] = hookCanChangeSwap(pool.hooks, pool.fee) ? ["HOOK_CAN_CHANGE_SWAP"] : [];
  const spot = poolSpotPrice(pool, decimals0, decimals1);
  if (!spot) return { pool, spot: null, depth: null, holdings: null, flags: [...flags, "EMPTY"] };
  // A tick gained past INDEXER_MAX_TICKS_PER_POOL was not stored: no depth is computed without it.
  if (pool.ticksIncomplete) return { pool, spot, depth: null, holdings: null, flags: [...flags, "INCOMPLETE_TICKS"] };
  if (pool.sqrtPriceX96 !== null && pool.liquidity !== null && pool.tick !== null) {
    const state = { sqrtPriceX96: pool.sqrtPriceX96, tick: pool.tick, liquidity: pool.liquidity };
    const depth = concentratedBandDepth(state, ticks);
    const holdings = concentratedHoldings(state, ticks);
    const consistent = depth !== null && holdings !== null;
    return { pool, spot, depth, holdings, flags: consistent ? flags : [...flags, "INCONSISTENT_TICKS"] };
  }
  const reserve0 = pool.reserve0 ?? 0n;
  const reserve1 = pool.reserve1 ?? 0n;
  const depth =
    pool.kind === "aerodrome-stable"
      ? stableCurveBandDepth(reserve0, reserve1, decimals0, decimals1)
      : constantProductBandDepth(reserve0, reserve1);
  return { pool, spot, depth, holdings: { amount0: reserve0, amount1: reserve1 }, flags };
}

/**
 * `quotePool`, or the pool flagged UNQUOTABLE when its indexed state cannot be quoted (a tick out of
 * range, a token of more than 18 decimals): one bad pool is left out, never the whole market.
 */
export function quotePoolSafely(pool: IndexedPool, ticks: readonly TickLiquidity[], decimals0: number, decimals1: number): PoolQuote {
  try {
    return quotePool(pool, ticks, decimals0, decimals1);
  } catch {
    return { pool, spot: null, depth: null, holdings: null, flags: ["UNQUOTABLE"] };
  }
}
