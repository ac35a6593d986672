import type { ManifestToken } from "../manifest";

/**
 * USD prices the devnet pools are seeded at and the traffic generator sizes trades by (roughly Base's
 * market in 2025; the live price then moves with traffic).
 */
export const referencePricesUsd: Record<string, number> = {
  USDC: 1,
  USDT: 1,
  DAI: 1,
  EURC: 1.08,
  WETH: 3000,
  // Native ETH, in Uniswap V4 pools: as WETH.
  ETH: 3000,
  cbBTC: 90_000,
  AERO: 1,
  VIRTUAL: 1.5,
  DEGEN: 0.005,
  TOSHI: 0.0005,
  // Two tokens nobody tracks, for a V4 pool the indexer must leave out.
  UNTA: 1,
  UNTB: 1,
};

/** The USD price of a token symbol, or an error naming the symbol that has none. */
export function referencePriceUsd(symbol: string): number {
  const price = referencePricesUsd[symbol];
  if (price === undefined) throw new Error(`no reference price for ${symbol}`);
  return price;
}

/** Base units of `token` worth about `usd` at its reference price. */
export function unitsForUsd(token: ManifestToken, usd: number): bigint {
  // Micro-token resolution keeps the float exact enough before scaling by the decimals in bigint.
  const microTokens = BigInt(Math.round((usd / referencePriceUsd(token.symbol)) * 1e6));
  return (microTokens * 10n ** BigInt(token.decimals)) / 1_000_000n;
}
