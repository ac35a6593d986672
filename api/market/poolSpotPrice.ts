import type { Ratio } from "./ratio";

/** The indexed state of one pool, as the `pool` table holds it. */
export type IndexedPoolState = {
  kind: string;
  token0: string;
  token1: string;
  reserve0: bigint | null;
  reserve1: bigint | null;
  sqrtPriceX96: bigint | null;
  liquidity: bigint | null;
};

const q192 = 1n << 192n;

/**
 * Spot price of token0 in token1 base units per token0 base unit, exact: (sqrtPriceX96 / 2^96)^2 for
 * V3-style pools, r1 / r0 for constant-product pools, and the marginal price of Aerodrome's stable
 * curve (3x^2y + y^3) / (x^3 + 3xy^2) on decimal-normalised reserves. Null when the pool has no price.
 */
export function poolSpotPrice(pool: IndexedPoolState, decimals0: number, decimals1: number): Ratio | null {
  if (pool.sqrtPriceX96 !== null && pool.sqrtPriceX96 > 0n) return { num: pool.sqrtPriceX96 * pool.sqrtPriceX96, den: q192 };
  const r0 = pool.reserve0;
  const r1 = pool.reserve1;
  if (r0 === null || r1 === null || r0 === 0n || r1 === 0n) return null;
  if (pool.kind !== "aerodrome-stable") return { num: r1, den: r0 };
  // Normalise to 18 decimals, take the curve's marginal price, then return to base units.
  const x = r0 * 10n ** BigInt(18 - decimals0);
  const y = r1 * 10n ** BigInt(18 - decimals1);
  const normalised = { num: 3n * x * x * y + y * y * y, den: x * x * x + 3n * x * y * y };
  return { num: normalised.num * 10n ** BigInt(decimals1), den: normalised.den * 10n ** BigInt(decimals0) };
}
