import { type Address, type Hex, zeroAddress } from "viem";
import { aerodromePoolAddress, slipstreamPoolAddress, sortTokens, uniswapV2PairAddress, uniswapV3PoolAddress } from "./poolAddress";
import { uniswapV4PoolId } from "./uniswapV4";

/** The DEX families whose pool addresses follow from public constants. */
export type DexKind = "uniswap-v2" | "uniswap-v3" | "uniswap-v4" | "aerodrome" | "slipstream";

/** Where a chain's DEXes live and how they derive their pools' addresses. */
export type DexDeployments = {
  uniswapV2: { factory: Address; initCodeHash: Hex };
  uniswapV3: { factory: Address; initCodeHash: Hex; fees: readonly number[] };
  /** Hookless pools only: a hook can change what a swap pays, so a hooked pool's price is not the market's. */
  uniswapV4: { poolManager: Address; feeTickSpacings: readonly { fee: number; tickSpacing: number }[] };
  aerodrome: { factory: Address; implementation: Address };
  /** Every CL factory: the pool implementation it clones, and the tick spacings it enables. */
  slipstream: readonly { factory: Address; implementation: Address; tickSpacings: readonly number[] }[];
};

/** A token the plan prices, by the symbol the price route answers for. */
export type PricedToken = { symbol: string; address: Address };

/** A derived pool that may price `symbol` against `quote`; it may not exist (yet). */
export type PoolCandidate = {
  symbol: string;
  quote: string;
  dex: DexKind;
  token0: Address;
  token1: Address;
  /** The deployer: the factory, or for Uniswap V4 the PoolManager. */
  factory: Address;
} & (
  | { dex: "uniswap-v2"; address: Address }
  | { dex: "uniswap-v3"; address: Address; fee: number }
  | { dex: "uniswap-v4"; id: Hex; fee: number; tickSpacing: number; hooks: Address }
  | { dex: "aerodrome"; address: Address; stable: boolean }
  | { dex: "slipstream"; address: Address; tickSpacing: number }
);

/** The pair a price can rest on: `token` (named `symbol`) priced against `against` (named `quote`). */
export type PricingPair = { symbol: string; token: Address; quote: string; against: Address };

/**
 * Every candidate pool of one pair on every DEX: V2's pair, V3's fee tiers, Aerodrome's stable and volatile
 * pools, each Slipstream factory's tick spacings, and V4's hookless standard pools (against native ETH too
 * in place of WETH on either side, where `weth` is given).
 */
export function derivePairCandidates(dexes: DexDeployments, pair: PricingPair, weth?: Address): PoolCandidate[] {
  const { symbol, quote, token, against } = pair;
  const [token0, token1] = sortTokens(token, against);
  const common = { symbol, quote, token0, token1 };
  // Native ETH stands in V4 pools where WETH would: [currency0, currency1, the quote's name].
  const v4Currencies: [Address, Address, string][] = [[token0, token1, quote]];
  const isWeth = (a: Address) => weth !== undefined && a.toLowerCase() === weth.toLowerCase();
  if (isWeth(token)) v4Currencies.push([zeroAddress, against, quote]);
  if (isWeth(against)) v4Currencies.push([zeroAddress, token, "ETH"]);
  const v3 = dexes.uniswapV3;
  return [
    {
      ...common,
      dex: "uniswap-v2",
      factory: dexes.uniswapV2.factory,
      address: uniswapV2PairAddress({ ...dexes.uniswapV2, tokenA: token, tokenB: against }),
    },
    ...v3.fees.map(
      (fee): PoolCandidate => ({
        ...common,
        dex: "uniswap-v3",
        factory: v3.factory,
        fee,
        address: uniswapV3PoolAddress({ ...v3, tokenA: token, tokenB: against, fee }),
      }),
    ),
    ...[false, true].map(
      (stable): PoolCandidate => ({
        ...common,
        dex: "aerodrome",
        factory: dexes.aerodrome.factory,
        stable,
        address: aerodromePoolAddress({ ...dexes.aerodrome, tokenA: token, tokenB: against, stable }),
      }),
    ),
    ...dexes.slipstream.flatMap((cl) =>
      cl.tickSpacings.map(
        (tickSpacing): PoolCandidate => ({
          ...common,
          dex: "slipstream",
          factory: cl.factory,
          tickSpacing,
          address: slipstreamPoolAddress({ ...cl, tokenA: token, tokenB: against, tickSpacing }),
        }),
      ),
    ),
    ...v4Currencies.flatMap(([currency0, currency1, v4Quote]) =>
      dexes.uniswapV4.feeTickSpacings.map(
        ({ fee, tickSpacing }): PoolCandidate => ({
          symbol,
          quote: v4Quote,
          token0: currency0,
          token1: currency1,
          dex: "uniswap-v4",
          factory: dexes.uniswapV4.poolManager,
          fee,
          tickSpacing,
          hooks: zeroAddress,
          id: uniswapV4PoolId({ currency0, currency1, fee, tickSpacing, hooks: zeroAddress }),
        }),
      ),
    ),
  ];
}

/**
 * The quotes prices rest on: the stablecoins taken at par (what every price is finally in) and WETH
 * (api/market/marketSymbols.ts names the same).
 */
export const pricingQuotes = { parStables: ["USDC", "USDT", "DAI"], weth: "WETH" } as const;

/**
 * Every candidate pool of every token against its quotes (pricingPairs) on every DEX of `dexes`, native
 * ETH standing in for WETH in V4. A pool of two par stables is derived for each of them.
 */
export function derivePoolCandidates(dexes: DexDeployments, tokens: readonly PricedToken[]): PoolCandidate[] {
  const weth = tokens.find((t) => t.symbol === pricingQuotes.weth)?.address;
  return pricingPairs(tokens, pricingQuotes).flatMap((pair) => derivePairCandidates(dexes, pair, weth));
}

/** What each tracked token is priced against: par stablecoins against each other, WETH against them, the rest against both. */
export function pricingPairs(tokens: readonly PricedToken[], p: { parStables: readonly string[]; weth: string }): PricingPair[] {
  const bySymbol = new Map(tokens.map((t) => [t.symbol, t]));
  const quotesOf = (symbol: string) => (p.parStables.includes(symbol) || symbol === p.weth ? p.parStables : [...p.parStables, p.weth]);
  return tokens.flatMap((token) =>
    quotesOf(token.symbol)
      .filter((quote) => quote !== token.symbol)
      .flatMap((quote) => {
        const against = bySymbol.get(quote);
        return against ? [{ symbol: token.symbol, token: token.address, quote, against: against.address }] : [];
      }),
  );
}
