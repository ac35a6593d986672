import type { EthQuote } from "./EthQuote";
import type { ReadMarket } from "./readMarket";

/**
 * ETH's live price for purchase intents: WETH's USD price as the token price route answers it (the
 * median of its deepest indexed pools), as wei per US dollar. Null, never a guess, whenever that route
 * would answer 503 (stale index, chain not readable at evidence grade, no qualifying pool).
 */
export function createEthQuote(readMarket: ReadMarket): EthQuote {
  return {
    async weiPerUsd() {
      const market = await readMarket();
      if (!market.ok) return null;
      const { snapshot } = market.value;
      const weth = snapshot.tokens.find((t) => t.symbol === "WETH");
      const price = weth ? snapshot.prices.get(weth.address) : undefined;
      if (!price?.usd) return null;
      return {
        // usd is dollars per 10^18 wei.
        wei: (10n ** 18n * price.usd.den) / price.usd.num,
        observedAt: new Date(Number(snapshot.head.timestamp) * 1000).toISOString(),
        source: `median of the ${price.pools.length} deepest indexed WETH pools at block ${snapshot.head.number}`,
      };
    },
  };
}
