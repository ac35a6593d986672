import type { ManifestToken } from "../manifest";
import { referencePriceUsd } from "./prices";

const q96 = 2n ** 96n;

/** token1 per token0 in base units at the reference prices, as an exact fraction. */
export function referenceRatio(token0: ManifestToken, token1: ManifestToken): { num: bigint; den: bigint } {
  const nanoUsd = (t: ManifestToken) => BigInt(Math.round(referencePriceUsd(t.symbol) * 1e9));
  return {
    num: nanoUsd(token0) * 10n ** BigInt(token1.decimals),
    den: nanoUsd(token1) * 10n ** BigInt(token0.decimals),
  };
}

/** sqrt(num / den) in Q64.96, rounded down. */
export function sqrtPriceX96Of({ num, den }: { num: bigint; den: bigint }): bigint {
  return bigintSqrt((num * q96 * q96) / den);
}

/** sqrt(1.0001^tick) in Q64.96 to float precision (enough to size positions and check ticks). */
export function approxSqrtRatioAtTick(tick: number): bigint {
  return BigInt(Math.floor(Math.sqrt(1.0001 ** tick) * 2 ** 96));
}

/** The tick whose price range holds `sqrtPriceX96`, to float precision. */
export function approxTickAt(sqrtPriceX96: bigint): number {
  const sqrtPrice = Number(sqrtPriceX96) / 2 ** 96;
  return Math.floor(Math.log(sqrtPrice * sqrtPrice) / Math.log(1.0001));
}

/** A range of about `halfWidth` ticks on each side of the price, on the pool's tick spacing. */
export function rangeAround(sqrtPriceX96: bigint, halfWidth: number, tickSpacing: number): { lower: number; upper: number } {
  const tick = approxTickAt(sqrtPriceX96);
  return {
    lower: Math.floor((tick - halfWidth) / tickSpacing) * tickSpacing,
    upper: Math.ceil((tick + halfWidth) / tickSpacing) * tickSpacing,
  };
}

/** The liquidity that holds `amount1` of token1 between the lower tick and the current price. */
export function liquidityForAmount1(sqrtPriceX96: bigint, lowerTick: number, amount1: bigint): bigint {
  return (amount1 * q96) / (sqrtPriceX96 - approxSqrtRatioAtTick(lowerTick));
}

/** floor(sqrt(n)) by Newton's method from above. */
function bigintSqrt(n: bigint): bigint {
  if (n < 2n) return n;
  let x = n;
  let y = (x + 1n) / 2n;
  while (y < x) {
    x = y;
    y = (x + n / x) / 2n;
  }
  return x;
}
