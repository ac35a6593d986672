import type { ManifestToken } from "../manifest";
import { approxTickAt, liquidityForUsd } from "./poolMath";

/** A concentrated-liquidity position to seed: its tick range and liquidity. */
export type SeedPosition = { tickLower: number; tickUpper: number; liquidity: bigint };

/** A range as offsets in ticks from the price and its share of the pool's value. */
type RangeShare = { below: number; above: number; share: number };

/**
 * Overlapping ranges around the price: a wide one holding nearly all the value (×/÷3, or ±2% for stable
 * pairs, as the pools had when they held one range), a medium one, and a narrow one whose edges lie
 * inside ±2% of the price, so that the depth within ±2% crosses initialized ticks and differs from what the
 * liquidity at the price alone would give (by about 15% on the deep volatile pools) without reordering
 * the pools by depth.
 */
const volatileRanges: readonly RangeShare[] = [
  { below: 10_986, above: 10_986, share: 0.945 },
  { below: 3_000, above: 2_000, share: 0.05 },
  { below: 150, above: 100, share: 0.005 },
];
const stableRanges: readonly RangeShare[] = [
  { below: 200, above: 200, share: 0.9 },
  { below: 50, above: 50, share: 0.08 },
  { below: 20, above: 12, share: 0.02 },
];

/** The positions a V3 or V4 pool at `sqrtPriceX96` is seeded with, worth about `tvlUsd` together. */
export function seedPositions(
  sqrtPriceX96: bigint,
  tickSpacing: number,
  tokens: readonly [ManifestToken, ManifestToken],
  { tvlUsd, stable }: { tvlUsd: number; stable: boolean },
): SeedPosition[] {
  const tick = approxTickAt(sqrtPriceX96);
  return (stable ? stableRanges : volatileRanges).map(({ below, above, share }) => {
    const range = rangeHolding(tick, tick - below, tick + above, tickSpacing);
    return { ...range, liquidity: liquidityForUsd(sqrtPriceX96, range, tokens, tvlUsd * share) };
  });
}

/**
 * [lower, upper] rounded inwards to the tick spacing, widened to the spacing around `tick` where rounding
 * would leave the price outside (a tick spacing wider than the range).
 */
export function rangeHolding(tick: number, lower: number, upper: number, tickSpacing: number): { tickLower: number; tickUpper: number } {
  const cell = Math.floor(tick / tickSpacing) * tickSpacing;
  const tickLower = Math.min(Math.ceil(lower / tickSpacing) * tickSpacing, cell);
  const tickUpper = Math.max(Math.floor(upper / tickSpacing) * tickSpacing, cell + tickSpacing);
  return { tickLower, tickUpper };
}
