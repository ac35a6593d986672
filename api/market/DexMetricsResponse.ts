import { z } from "zod";
import { MarketProvenance, DecimalText as usd } from "./MarketProvenance";

const figures = { pools: z.int().nonnegative(), reserveUsd: usd, depthUsd: usd, volumeUsd: usd };

/** `GET /v1/dex/metrics`: reserves, ±2% depth and volume summed over the tracked pools, and exactly what they cover. */
export const DexMetricsResponse = z.strictObject({
  totals: z.strictObject(figures),
  byDex: z.array(z.strictObject({ dex: z.string(), ...figures })),
  /** Swaps counted in `volumeUsd`: those mined after `from` up to the index head's time. */
  volumeWindow: z.strictObject({ from: z.iso.datetime(), to: z.iso.datetime(), seconds: z.int().positive() }),
  coverage: z.strictObject({
    /** Not a whole-chain figure: only these pools of these tokens on these DEXes. */
    scope: z.literal("TRACKED_POOLS"),
    tokens: z.array(z.strictObject({ symbol: z.string(), address: z.string(), priceUsd: usd })),
    dexes: z.array(z.string()),
    pools: z.int().nonnegative(),
    /** Uniswap V4 pools whose hooks may change swap results: counted in the totals (their liquidity is real), named here. */
    hookedPools: z.array(z.string()),
    /** Indexed pools left out, by reason (a token without a USD price, ticks that disagree, no liquidity). */
    excluded: z.strictObject({ UNPRICED_TOKEN: z.int(), INCONSISTENT_TICKS: z.int(), EMPTY: z.int() }),
  }),
  provenance: MarketProvenance,
});
export type DexMetricsResponse = z.infer<typeof DexMetricsResponse>;
