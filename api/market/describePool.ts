import type { PoolCandidate } from "./priceTokens";
import { formatRatio } from "./ratio";
import type { PricedPool } from "./TokenPriceResponse";

/** Fractional digits of USD prices (tokens worth fractions of a cent keep their figures) and of USD amounts. */
export const priceDigits = 18;
export const usdDigits = 6;

/** The route a price took: STABLECOIN or VIA_WETH when every pool took it, else MIXED. */
export function routeOf(pools: readonly PoolCandidate[]): "STABLECOIN" | "VIA_WETH" | "MIXED" {
  const routes = new Set(pools.map((c) => c.route));
  const [only] = routes;
  return routes.size === 1 && only ? only : "MIXED";
}

/** A pool candidate as the answers show it. */
export function describePool(c: PoolCandidate): PricedPool {
  const { pool } = c.quote;
  return {
    address: pool.address,
    dex: pool.kind,
    poolManager: pool.kind === "uniswap-v4" ? pool.factory : null,
    pairedWith: c.against.symbol,
    route: c.route,
    fee: pool.fee,
    hooks: pool.hooks,
    priceUsd: c.usdPerToken ? formatRatio(c.usdPerToken, priceDigits) : null,
    depthUsd: c.depthUsd ? formatRatio(c.depthUsd, usdDigits) : null,
    lastUpdatedBlock: Number(pool.blockNumber),
  };
}
