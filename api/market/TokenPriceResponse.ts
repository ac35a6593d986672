import { z } from "zod";
import { DecimalText as decimalText, MarketProvenance } from "./MarketProvenance";
import { marketSymbols } from "./marketSymbols";

const route = z.enum(["STABLECOIN", "VIA_WETH"]);

/** One pool as it bears on a price: the pool, what it pairs the token with, its price and depth in USD. */
export const PricedPool = z.strictObject({
  /** The pool's address; a Uniswap V4 pool's 32-byte id (the pool lives in `poolManager`). */
  address: z.string(),
  dex: z.enum(["uniswap-v2", "uniswap-v3", "uniswap-v4", "slipstream", "aerodrome-volatile", "aerodrome-stable"]),
  poolManager: z.string().nullable(),
  pairedWith: z.string(),
  route,
  /** Fee tier in hundredths of a bip (V3-style and V4 pools), else null. */
  fee: z.int().nullable(),
  /** A Uniswap V4 pool's hooks contract, else null. */
  hooks: z.string().nullable(),
  /** USD per whole token implied by this pool; null when it has no price. */
  priceUsd: decimalText.nullable(),
  /** USD value of what moves the pool's price by 2% up plus by 2% down (fees apart); null without a price. */
  depthUsd: decimalText.nullable(),
  /** The block at which the indexed state of the pool was last updated. */
  lastUpdatedBlock: z.int().nonnegative(),
});
export type PricedPool = z.infer<typeof PricedPool>;

export const ExcludedPool = PricedPool.extend({
  reason: z.enum([
    "HOOK_CAN_CHANGE_SWAP",
    "INCONSISTENT_TICKS",
    "INCOMPLETE_TICKS",
    "UNQUOTABLE",
    "EMPTY",
    "BELOW_MIN_DEPTH",
    "NOT_AMONG_DEEPEST",
  ]),
});

/** `GET /v1/token/price/{symbol}`: the median USD price over the up-to-five deepest indexed pools, and how it was reached. */
export const TokenPriceResponse = z.strictObject({
  symbol: z.enum(marketSymbols),
  /** The ERC-20 priced (WETH for ETH). */
  token: z.strictObject({ symbol: z.string(), address: z.string(), decimals: z.int() }),
  priceUsd: decimalText,
  basis: z.literal("MEDIAN_OF_DEEPEST_POOLS"),
  /** STABLECOIN or VIA_WETH when every pool took that route, else MIXED. */
  route: z.enum(["STABLECOIN", "VIA_WETH", "MIXED"]),
  /** WETH's own USD price, used by the VIA_WETH pools; null when none did. */
  wethPriceUsd: decimalText.nullable(),
  spread: z.strictObject({ minUsd: decimalText, maxUsd: decimalText, bps: decimalText }),
  minDepthUsd: decimalText,
  maxPools: z.int(),
  /** How many pools the median rests on (the length of `pools`). */
  poolCount: z.int().positive(),
  /**
   * True when the price rests on fewer than `solidPoolCount` (3) pools: then one pool's price moves it by
   * itself (with two, the median is their mean). With three or more, one pushed pool moves the median at
   * most to its neighbour's price, and shows in `spread`.
   */
  fewerThanThreePools: z.boolean(),
  /** The pools the median is over, deepest first. */
  pools: z.array(PricedPool),
  /** The deepest pools that hold the token but do not count, with why (at most `excludedShown`). */
  excluded: z.array(ExcludedPool),
  excludedCount: z.int().nonnegative(),
  provenance: MarketProvenance,
});
export type TokenPriceResponse = z.infer<typeof TokenPriceResponse>;
