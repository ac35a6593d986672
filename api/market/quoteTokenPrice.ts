import { failure, type Result, success } from "../errors";
import { oncePer } from "../memo/oncePer";
import type { MarketSnapshot } from "./buildMarketSnapshot";
import { describePool, priceDigits, routeOf, usdDigits } from "./describePool";
import { type MarketSymbol, marketSymbols, pricedSymbolOf, resolveMarketSymbol } from "./marketSymbols";
import type { TokenPrice } from "./priceTokens";
import { compareRatio, formatRatio, type Ratio } from "./ratio";
import type { MarketReading, ReadMarket } from "./readMarket";
import type { TokenPriceResponse } from "./TokenPriceResponse";

/** Excluded pools listed in an answer, deepest first (the count says how many there are in all). */
export const excludedShown = 10;

/** The fewest pools a median may rest on for no single pool to move it by itself (one outlier among three). */
export const solidPoolCount = 3;

/**
 * A token's USD price as the spec defines it: the median of the up-to-five deepest indexed pools holding
 * it, with the pools, their spread and the route to USD. UNKNOWN_SYMBOL (with the supported list) for an
 * untracked symbol; DATA_SOURCE_UNAVAILABLE when the index is stale, the token was refused at start, or
 * no pool qualifies.
 */
export async function quoteTokenPrice(readMarket: ReadMarket, requested: string): Promise<Result<TokenPriceResponse>> {
  const symbol = resolveMarketSymbol(requested);
  if (!symbol) {
    return failure("UNKNOWN_SYMBOL", `${requested} is not a tracked symbol (matching is case-insensitive)`, {
      supported: [...marketSymbols],
    });
  }
  const market = await readMarket();
  if (!market.ok) return market;
  const quotes = quotesOf(market.value);
  let quote = quotes.get(symbol);
  if (!quote) {
    const { snapshot, provenance } = market.value;
    const answers = answersOf(snapshot);
    const answer = answers.get(symbol) ?? answerFor(snapshot, symbol);
    answers.set(symbol, answer);
    // Frozen: every request of this reading is sent this object (its JSON text made once).
    quote = answer.ok ? success(Object.freeze({ ...answer.value, provenance })) : answer;
    quotes.set(symbol, quote);
  }
  return quote;
}

/** Answers of one snapshot by symbol: computed once per indexed block and symbol. */
const answersOf = oncePer((_: MarketSnapshot) => new Map<MarketSymbol, Result<Omit<TokenPriceResponse, "provenance">>>());

/** Answers with their provenance, by symbol, of one reading: every request served from it gets the same object (sent as one JSON text made once: `answerJson` with `shared`). */
const quotesOf = oncePer((_: MarketReading) => new Map<MarketSymbol, Result<TokenPriceResponse>>());

function answerFor(snapshot: MarketSnapshot, symbol: MarketSymbol): Result<Omit<TokenPriceResponse, "provenance">> {
  const pricedSymbol = pricedSymbolOf(symbol);
  const refused = snapshot.refused.find((t) => t.symbol === pricedSymbol);
  if (refused) return failure("DATA_SOURCE_UNAVAILABLE", `${pricedSymbol} was refused at start: ${refused.reason}`);
  const token = snapshot.tokens.find((t) => t.symbol === pricedSymbol);
  const price = token ? snapshot.prices.get(token.address) : undefined;
  if (!token || !price) return failure("DATA_SOURCE_UNAVAILABLE", `${pricedSymbol} is not indexed`);
  if (!price.usd) {
    return failure("DATA_SOURCE_UNAVAILABLE", `no indexed pool of ${pricedSymbol} qualifies: none is deep enough to price it`, {
      excluded: price.excluded.slice(0, excludedShown).map((c) => ({ ...describePool(c), reason: c.exclusion })),
    });
  }
  const weth = snapshot.tokens.find((t) => t.symbol === "WETH");
  const wethUsd = weth ? snapshot.prices.get(weth.address)?.usd : null;
  return success({
    symbol,
    token: { symbol: token.symbol, address: token.address, decimals: token.decimals },
    priceUsd: formatRatio(price.usd, priceDigits),
    basis: "MEDIAN_OF_DEEPEST_POOLS",
    route: routeOf(price.pools),
    wethPriceUsd: price.pools.some((c) => c.route === "VIA_WETH") && wethUsd ? formatRatio(wethUsd, priceDigits) : null,
    spread: spreadOf(price),
    minDepthUsd: formatRatio(snapshot.rules.minDepthUsd, usdDigits),
    maxPools: snapshot.rules.maxPools,
    poolCount: price.pools.length,
    fewerThanThreePools: price.pools.length < solidPoolCount,
    pools: price.pools.map(describePool),
    excluded: price.excluded.slice(0, excludedShown).map((c) => ({ ...describePool(c), reason: c.exclusion ?? "EMPTY" })),
    excludedCount: price.excluded.length,
  });
}

/** Lowest and highest pool price, and (highest - lowest) / median in basis points. */
function spreadOf(price: TokenPrice): TokenPriceResponse["spread"] {
  const prices = price.pools.map((c) => c.usdPerToken as Ratio).sort(compareRatio);
  const min = prices[0] as Ratio;
  const max = prices[prices.length - 1] as Ratio;
  const median = price.usd as Ratio;
  const width = { num: max.num * min.den - min.num * max.den, den: max.den * min.den };
  return {
    minUsd: formatRatio(min, priceDigits),
    maxUsd: formatRatio(max, priceDigits),
    bps: formatRatio({ num: width.num * median.den * 10_000n, den: width.den * median.num }, 4),
  };
}
