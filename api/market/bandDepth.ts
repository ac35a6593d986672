import { ceilDiv, isqrt } from "./ratio";
import { sqrtRatioAtTick } from "./tickMath";

/** The price band depth is measured in: ±2% (200 basis points). */
export const depthBandBps = 200n;

const q96 = 1n << 96n;
const bps = 10_000n;

/**
 * What it takes to move a pool's price to the edges of the band, in base units and before fees:
 * `token1In` sold into the pool raises the price (token1 per token0) by the band, `token0In` lowers it
 * by the band.
 */
export type BandDepth = { token1In: bigint; token0In: bigint };

/** An initialized tick: crossing it upwards adds `liquidityNet` to the in-range liquidity. */
export type TickLiquidity = { tick: number; liquidityNet: bigint };

/** The state of a concentrated-liquidity pool (Uniswap V3 and V4, Slipstream). */
export type ConcentratedState = { sqrtPriceX96: bigint; tick: number; liquidity: bigint };

/** token1 for moving the price from `lower` up to `upper` with liquidity `l` (rounded up, as a swap's input). */
const token1Between = (l: bigint, lower: bigint, upper: bigint) => ceilDiv(l * (upper - lower), q96);

/** token0 for moving the price from `upper` down to `lower` with liquidity `l` (rounded up). */
const token0Between = (l: bigint, lower: bigint, upper: bigint) => ceilDiv(ceilDiv((l << 96n) * (upper - lower), upper), lower);

/**
 * Band depth of a concentrated-liquidity pool, exact across ticks: from the current price to each edge of
 * the band, segment by segment between initialized ticks, with the liquidity each segment really has
 * (+liquidityNet crossing a tick upwards, -liquidityNet downwards). `ticks` sorted ascending. Null when
 * the ticks and the in-range liquidity disagree (liquidity would go negative): such a pool is left out.
 */
export function concentratedBandDepth(state: ConcentratedState, ticks: readonly TickLiquidity[], band = depthBandBps): BandDepth | null {
  const { sqrtPriceX96: sqrtP } = state;
  const upTarget = isqrt((sqrtP * sqrtP * (bps + band)) / bps);
  const downTarget = isqrt((sqrtP * sqrtP * (bps - band)) / bps);

  let token1In = 0n;
  let liquidity = state.liquidity;
  let at = sqrtP;
  for (const t of ticks) {
    if (t.tick <= state.tick) continue;
    const edge = sqrtRatioAtTick(t.tick);
    if (edge >= upTarget) break;
    token1In += token1Between(liquidity, at, edge);
    at = edge;
    liquidity += t.liquidityNet;
    if (liquidity < 0n) return null;
  }
  token1In += token1Between(liquidity, at, upTarget);

  let token0In = 0n;
  liquidity = state.liquidity;
  at = sqrtP;
  for (let i = ticks.length - 1; i >= 0; i--) {
    const t = ticks[i] as TickLiquidity;
    if (t.tick > state.tick) continue;
    const edge = sqrtRatioAtTick(t.tick);
    if (edge <= downTarget) break;
    token0In += token0Between(liquidity, edge, at);
    at = edge;
    liquidity -= t.liquidityNet;
    if (liquidity < 0n) return null;
  }
  token0In += token0Between(liquidity, downTarget, at);
  return { token1In, token0In };
}

/**
 * Band depth of a constant-product pool (Uniswap V2, Aerodrome volatile): x*y = k, so moving the price by
 * a factor f takes reserve1 * (sqrt(f) - 1) of token1 up and reserve0 * (1/sqrt(f') - 1) of token0 down.
 */
export function constantProductBandDepth(reserve0: bigint, reserve1: bigint, band = depthBandBps): BandDepth {
  return {
    token1In: isqrt((reserve1 * reserve1 * (bps + band)) / bps) - reserve1,
    token0In: isqrt((reserve0 * reserve0 * bps) / (bps - band)) - reserve0,
  };
}

/** The tokens a concentrated pool holds for its liquidity at the current price, across every initialized range (fees apart). */
export function concentratedHoldings(
  state: ConcentratedState,
  ticks: readonly TickLiquidity[],
): { amount0: bigint; amount1: bigint } | null {
  let amount0 = 0n;
  let liquidity = state.liquidity;
  let at = state.sqrtPriceX96;
  for (const t of ticks) {
    if (t.tick <= state.tick) continue;
    const edge = sqrtRatioAtTick(t.tick);
    amount0 += ((liquidity << 96n) * (edge - at)) / edge / at;
    at = edge;
    liquidity += t.liquidityNet;
    if (liquidity < 0n) return null;
  }
  let amount1 = 0n;
  liquidity = state.liquidity;
  at = state.sqrtPriceX96;
  for (let i = ticks.length - 1; i >= 0; i--) {
    const t = ticks[i] as TickLiquidity;
    if (t.tick > state.tick) continue;
    const edge = sqrtRatioAtTick(t.tick);
    amount1 += (liquidity * (at - edge)) / q96;
    at = edge;
    liquidity -= t.liquidityNet;
    if (liquidity < 0n) return null;
  }
  return { amount0, amount1 };
}
