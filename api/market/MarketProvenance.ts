import { z } from "zod";
import { ObservationBlock } from "../chain/ObservationBlock";

/** An exact non-negative decimal figure as text ("2500.5"): how market answers write prices and USD amounts. */
export const DecimalText = z.string().regex(/^\d+(\.\d+)?$/);

/** The indexed state an answer was read from: the index's head and how far it is behind the chain's. */
export const IndexProvenance = z.strictObject({
  headBlock: z.int().nonnegative(),
  headHash: z.string(),
  headTimestamp: z.iso.datetime(),
  /** Chain head (the pinned observation block) minus the index head. */
  lagBlocks: z.int(),
  /** Beyond this lag the index is stale and the route answers 503 DATA_SOURCE_UNAVAILABLE. */
  maxLagBlocks: z.int().nonnegative(),
});
export type IndexProvenance = z.infer<typeof IndexProvenance>;

/**
 * Where a market answer comes from, on every market route: `RPC` (gas: read from the chain at the
 * pinned block) or `INDEX` (prices, DEX metrics, whales: read from our own index, which must be within
 * `maxLagBlocks` of the chain head pinned at evidence grade). The provider and trust level are the
 * pinned block's, and travel in `X-Service-RPC-Provider` / `X-Service-Trust-Level` too.
 */
export const MarketProvenance = z.strictObject({
  source: z.enum(["RPC", "INDEX"]),
  observationBlock: ObservationBlock,
  /** Null for `RPC` answers. */
  index: IndexProvenance.nullable(),
});
export type MarketProvenance = z.infer<typeof MarketProvenance>;
