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

/**
 * The liquidity that makes a position over [tickLower, tickUpper] worth about `usd` at the price
 * `sqrtPriceX96` and the tokens' reference prices (float precision: enough to size positions).
 */
export function liquidityForUsd(
  sqrtPriceX96: bigint,
  { tickLower, tickUpper }: { tickLower: number; tickUpper: number },
  [token0, token1]: readonly [ManifestToken, ManifestToken],
  usd: number,
): bigint {
  const sqrtLower = Math.sqrt(1.0001 ** tickLower);
  const sqrtUpper = Math.sqrt(1.0001 ** tickUpper);
  const sqrtPrice = Math.min(Math.max(Number(sqrtPriceX96) / 2 ** 96, sqrtLower), sqrtUpper);
  // Base units of each token that one unit of liquidity holds over the range at this price.
  const amount0 = 1 / sqrtPrice - 1 / sqrtUpper;
  const amount1 = sqrtPrice - sqrtLower;
  const usdPerUnit = (t: ManifestToken) => referencePriceUsd(t.symbol) / 10 ** t.decimals;
  return BigInt(Math.floor(usd / (amount0 * usdPerUnit(token0) + amount1 * usdPerUnit(token1))));
}

/** floor(sqrt(n)) by Newton's method from above. */
export function bigintSqrt(n: bigint): bigint {
  if (n < 2n) return n;
  let x = n;
  let y = (x + 1n) / 2n;
  while (y < x) {
    x = y;
    y = (x + n / x) / 2n;
  }
  return x;
}
