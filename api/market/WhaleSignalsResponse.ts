import { z } from "zod";
import { DecimalText as decimalText, MarketProvenance } from "./MarketProvenance";

/** How a transfer was valued: the token's current indexed USD price and where it came from, or why there is none. */
export const Valuation = z.discriminatedUnion("status", [
  z.strictObject({
    status: z.literal("PRICED"),
    priceUsd: decimalText,
    basis: z.literal("MEDIAN_OF_DEEPEST_POOLS"),
    pools: z.int().positive(),
    route: z.enum(["STABLECOIN", "VIA_WETH", "MIXED"]),
    /** The index head the price was read at (the answer's provenance). */
    atBlock: z.int().nonnegative(),
  }),
  z.strictObject({ status: z.literal("UNAVAILABLE"), reason: z.string() }),
]);

export const WhaleSignal = z.strictObject({
  txHash: z.string(),
  logIndex: z.int().nonnegative(),
  blockNumber: z.int().nonnegative(),
  timestamp: z.iso.datetime(),
  token: z.strictObject({ symbol: z.string(), address: z.string() }),
  from: z.string(),
  to: z.string(),
  /** Whole tokens, exact. */
  amount: decimalText,
  amountBaseUnits: z.string(),
  /** amount * the token's current USD price; null when it has none. */
  valueUsd: decimalText.nullable(),
  valuation: Valuation,
});

/** `GET /v1/whales/signals`: the newest transfers at or above their token's threshold in a bounded recent window. */
export const WhaleSignalsResponse = z.strictObject({
  /** Exactly the blocks searched: `fromBlock`..`toBlock` inclusive, `toBlock` the index head. */
  window: z.strictObject({ fromBlock: z.int().nonnegative(), toBlock: z.int().nonnegative(), blocks: z.int().positive() }),
  thresholds: z.array(z.strictObject({ symbol: z.string(), address: z.string(), minAmount: decimalText, minAmountBaseUnits: z.string() })),
  /** Newest first, at most `limit`. */
  signals: z.array(WhaleSignal),
  limit: z.literal(50),
  provenance: MarketProvenance,
});
export type WhaleSignalsResponse = z.infer<typeof WhaleSignalsResponse>;
export type WhaleSignal = z.infer<typeof WhaleSignal>;
