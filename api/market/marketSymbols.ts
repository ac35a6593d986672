/** The symbols the token price route answers for (the spec's list; its spelling is canonical). */
export const marketSymbols = ["USDC", "WETH", "ETH", "cbBTC", "AERO", "EURC", "VIRTUAL", "DEGEN", "TOSHI", "USDT", "DAI"] as const;
export type MarketSymbol = (typeof marketSymbols)[number];

const byLowercase = new Map<string, MarketSymbol>(marketSymbols.map((s) => [s.toLowerCase(), s]));

/** The canonical symbol a request names, matched case-insensitively ("cbbtc" is cbBTC); null when untracked. */
export function resolveMarketSymbol(requested: string): MarketSymbol | null {
  return byLowercase.get(requested.toLowerCase()) ?? null;
}

/** ETH is native: it is priced through WETH (and counts as WETH in Uniswap V4 pools). */
export function pricedSymbolOf(symbol: MarketSymbol): string {
  return symbol === "ETH" ? "WETH" : symbol;
}

/** Stablecoins whose USD value is taken as exactly 1 on the quote side of a pool: the unit USD prices are in. */
export const parStableSymbols = ["USDC", "USDT", "DAI"] as const;
