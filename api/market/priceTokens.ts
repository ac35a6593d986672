import type { Address } from "viem";
import type { PoolFlag, PoolQuote } from "./quotePool";
import { addRatio, compareRatio, medianRatio, mulRatio, type Ratio } from "./ratio";

/** A verified tracked token: what prices are computed for. Addresses lowercase. */
export type MarketToken = { symbol: string; address: Address; decimals: number };

/** How a pool's price reached US dollars: against a stablecoin taken at par, or through WETH's own USD price. */
export type PriceRoute = "STABLECOIN" | "VIA_WETH";

/** Why a pool holding the token does not count in its price. */
export type Exclusion = PoolFlag | "BELOW_MIN_DEPTH" | "NOT_AMONG_DEEPEST";

/** A pool that holds the priced token against a quote token with a USD price, as it bears on that price. */
export type PoolCandidate = {
  quote: PoolQuote;
  /** The pair's other token. */
  against: MarketToken;
  route: PriceRoute;
  /** USD per whole priced token implied by this pool; null when the pool has no price. */
  usdPerToken: Ratio | null;
  /** USD value of the pool's ±2% depth (both sides); null without a price or depth. */
  depthUsd: Ratio | null;
  exclusion: Exclusion | null;
};

export type TokenPrice = {
  token: MarketToken;
  /** USD per whole token: the median over `pools`; null when no pool qualifies. */
  usd: Ratio | null;
  /** The up-to-`maxPools` deepest qualifying pools, deepest first. */
  pools: PoolCandidate[];
  /** Every other candidate, deepest first, with why it does not count. */
  excluded: PoolCandidate[];
};

export type PriceTokensParameters = {
  tokens: readonly MarketToken[];
  quotes: readonly PoolQuote[];
  weth: Address;
  /** Stablecoins whose USD value is taken as exactly 1 when they are the quote side of a pool. */
  parStables: ReadonlySet<Address>;
  /** Pools with less USD depth within ±2% than this do not set a price. */
  minDepthUsd: Ratio;
  /** The spec's basis: the median of up to five deepest pools. */
  maxPools: number;
};

const zero = "0x0000000000000000000000000000000000000000";
const one: Ratio = { num: 1n, den: 1n };
const pow10 = (n: number) => 10n ** BigInt(n);

/**
 * USD prices of the tracked tokens from the indexed pools, exactly (rationals of base units): stablecoins and
 * WETH first, against the par stablecoins; then every other token against the par stablecoins and WETH.
 * Each price is the median of the up-to-`maxPools` deepest pools whose ±2% depth is at least `minDepthUsd`;
 * native ETH in Uniswap V4 pools counts as WETH. Keyed by token address.
 */
export function priceTokens(p: PriceTokensParameters): Map<Address, TokenPrice> {
  const byAddress = new Map(p.tokens.map((t) => [t.address, t]));
  const weth = byAddress.get(p.weth);
  const asToken = (address: string) => {
    const lower = address.toLowerCase();
    return byAddress.get((lower === zero ? p.weth : lower) as Address);
  };
  const prices = new Map<Address, TokenPrice>();
  const usdOf = (quoteToken: MarketToken): Ratio | null =>
    p.parStables.has(quoteToken.address) ? one : (prices.get(quoteToken.address)?.usd ?? null);

  const price = (token: MarketToken, quoteTokens: ReadonlySet<Address>) => {
    const candidates: PoolCandidate[] = [];
    for (const quote of p.quotes) {
      // A pool of an untracked token, or of native ETH against WETH, has no `against` among the quote tokens.
      const token0 = asToken(quote.pool.token0);
      const token1 = asToken(quote.pool.token1);
      const against = token0 === token ? token1 : token1 === token ? token0 : undefined;
      if (!against || !quoteTokens.has(against.address)) continue;
      const usdAgainst = usdOf(against);
      if (!usdAgainst) continue;
      candidates.push(candidate(quote, token, against, token0 === token, usdAgainst, p.parStables.has(against.address)));
    }
    prices.set(token.address, choose(token, candidates, p.minDepthUsd, p.maxPools));
  };

  // No pool pairs a token with itself, so each stablecoin's quote tokens may include it.
  const stables = new Set(p.tokens.filter((t) => p.parStables.has(t.address)).map((t) => t.address));
  for (const token of p.tokens) if (stables.has(token.address)) price(token, stables);
  if (weth) price(weth, stables);
  const quoteTokens = weth ? new Set([...stables, weth.address]) : stables;
  for (const token of p.tokens) if (!prices.has(token.address)) price(token, quoteTokens);
  return prices;
}

function candidate(
  quote: PoolQuote,
  token: MarketToken,
  against: MarketToken,
  tokenIsToken0: boolean,
  usdAgainst: Ratio,
  againstIsStable: boolean,
): PoolCandidate {
  const route: PriceRoute = againstIsStable ? "STABLECOIN" : "VIA_WETH";
  const flag = quote.flags[0] ?? null;
  const { spot, depth } = quote;
  if (!spot || !depth) return { quote, against, route, usdPerToken: null, depthUsd: null, exclusion: flag ?? "EMPTY" };
  // Base units of `against` per base unit of `token`, then USD per whole token.
  const rate = tokenIsToken0 ? spot : { num: spot.den, den: spot.num };
  const usdPerToken = mulRatio(mulRatio(rate, { num: pow10(token.decimals), den: pow10(against.decimals) }), usdAgainst);
  const usd0 = tokenIsToken0 ? usdPerToken : usdAgainst;
  const usd1 = tokenIsToken0 ? usdAgainst : usdPerToken;
  const [decimals0, decimals1] = tokenIsToken0 ? [token.decimals, against.decimals] : [against.decimals, token.decimals];
  const depthUsd = addRatio(
    mulRatio({ num: depth.token0In, den: pow10(decimals0) }, usd0),
    mulRatio({ num: depth.token1In, den: pow10(decimals1) }, usd1),
  );
  return { quote, against, route, usdPerToken, depthUsd, exclusion: flag };
}

/** The deepest qualifying pools and their median; the rest, each with its reason. */
function choose(token: MarketToken, candidates: PoolCandidate[], minDepthUsd: Ratio, maxPools: number): TokenPrice {
  const deepestFirst = [...candidates].sort((a, b) => {
    if (!a.depthUsd || !b.depthUsd) return a.depthUsd ? -1 : b.depthUsd ? 1 : 0;
    return compareRatio(b.depthUsd, a.depthUsd) || a.quote.pool.address.localeCompare(b.quote.pool.address);
  });
  const pools: PoolCandidate[] = [];
  const excluded: PoolCandidate[] = [];
  for (const c of deepestFirst) {
    if (c.exclusion) excluded.push(c);
    else if (!c.depthUsd || compareRatio(c.depthUsd, minDepthUsd) < 0) excluded.push({ ...c, exclusion: "BELOW_MIN_DEPTH" });
    else if (pools.length >= maxPools) excluded.push({ ...c, exclusion: "NOT_AMONG_DEEPEST" });
    else pools.push(c);
  }
  const usd = pools.length > 0 ? medianRatio(pools.map((c) => c.usdPerToken as Ratio)) : null;
  return { token, usd, pools, excluded };
}
