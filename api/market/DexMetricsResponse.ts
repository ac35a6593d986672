import { z } from "zod";
import { MarketProvenance, DecimalText as usd } from "./MarketProvenance";

const figures = { pools: z.int().nonnegative(), reserveUsd: usd, depthUsd: usd, volumeUsd: usd };
const count = z.int().nonnegative();

/** `GET /v1/dex/metrics`: reserves, ±2% depth and volume summed over the tracked pools, and exactly what they cover. */
export const DexMetricsResponse = z.strictObject({
  totals: z.strictObject(figures),
  byDex: z.array(z.strictObject({ dex: z.string(), ...figures })),
  /** Swaps counted in `volumeUsd`: those mined after `from` up to the index head's time. */
  volumeWindow: z.strictObject({ from: z.iso.datetime(), to: z.iso.datetime(), seconds: z.int().positive() }),
  coverage: z.strictObject({
    /** Not a whole-chain figure: only these pools of these tokens on these DEXes. */
    scope: z.literal("TRACKED_POOLS"),
    /**
     * The pools considered are the price route's: every planned pool (derived candidate, or curated entry)
     * verified on chain and indexed. `indexed` = `pools` + the sum of `excluded`; `indexed` + `watched` +
     * `refused` = every planned pool.
     */
    poolSet: z.literal("VERIFIED_CANDIDATES"),
    candidates: z.strictObject({
      /** Verified (the factory names it, it holds the derived tokens) and indexed: summed here or excluded below. */
      indexed: count,
      /** No pool at that address yet: indexed from its first event once created. */
      watched: count,
      /** Not the pool it was planned as (or no verified tracked token in it): never indexed. */
      refused: count,
    }),
    tokens: z.array(z.strictObject({ symbol: z.string(), address: z.string(), priceUsd: usd })),
    dexes: z.array(z.string()),
    pools: count,
    /** The pools summed (address; a Uniswap V4 pool's id), sorted: the same pools the price route ranks. */
    summedPools: z.array(z.string()),
    /** Uniswap V4 pools whose hooks may change swap results: counted in the totals (their liquidity is real), named here. */
    hookedPools: z.array(z.string()),
    /**
     * Indexed pools left out, by reason: a token that is not a verified tracked token, or has no USD price;
     * ticks that disagree with the pool's state, or that stopped being recorded past
     * INDEXER_MAX_TICKS_PER_POOL; a state that cannot be quoted; no liquidity.
     */
    excluded: z.strictObject({
      UNVERIFIED_TOKEN: count,
      UNPRICED_TOKEN: count,
      INCONSISTENT_TICKS: count,
      INCOMPLETE_TICKS: count,
      UNQUOTABLE: count,
      EMPTY: count,
    }),
  }),
  provenance: MarketProvenance,
});
export type DexMetricsResponse = z.infer<typeof DexMetricsResponse>;
