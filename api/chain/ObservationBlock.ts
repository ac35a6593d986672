import { z } from "zod";
import { WireAddress } from "../http/params";

/** How far an observation can be trusted: a trusted primary, a quorum of public providers, or neither. */
export const TrustLevel = z.enum(["TRUSTED_PRIMARY", "PUBLIC_QUORUM", "UNVERIFIED"]);
export type TrustLevel = z.infer<typeof TrustLevel>;

const hex32 = z.string().regex(/^0x[0-9a-f]{64}$/);

/** The block every state-bearing read of one analysis is made at, and how far it can be trusted. */
export const ObservationBlock = z.strictObject({
  status: z.enum(["PINNED", "UNPINNED"]),
  chainId: z.int(),
  network: z.string(),
  blockNumber: z.int().nonnegative().nullable(),
  blockHash: hex32.nullable() as z.ZodType<`0x${string}` | null>,
  /** Hex block number, as a JSON-RPC block tag. */
  blockTag: z.string().nullable(),
  trustLevel: TrustLevel,
  evidenceGrade: z.boolean(),
  providerName: z.string().nullable(),
  /** Providers that reported the pinned block with the same hash. */
  agreement: z.int().nonnegative(),
  /** Providers asked that answered at all. */
  sampled: z.int().nonnegative(),
  /** Why evidence grade was not reached (NO_PROVIDER_ANSWERED, PROVIDERS_DISAGREE_ON_BLOCK_HASH, NO_PUBLIC_QUORUM, REQUESTED_BLOCK_NOT_YET_MINED), else null. */
  reason: z.string().nullable(),
  retrievedAt: z.iso.datetime(),
  originalRetrievalTime: z.iso.datetime(),
});
export type ObservationBlock = z.infer<typeof ObservationBlock>;

export const RecordedCall = z.strictObject({
  method: z.string(),
  blockTag: z.string(),
  status: z.enum(["OK", "FAILED", "REVERTED"]),
  provider: z.string(),
  target: WireAddress,
});
export type RecordedCall = z.infer<typeof RecordedCall>;

/** The `rpcObservation` record of one analysis: every state-bearing call made, and what failed. */
export const RpcObservation = z.strictObject({
  pinnedBlockTag: z.string().nullable(),
  stateBearingCallCount: z.int().nonnegative(),
  failedReadCount: z.int().nonnegative(),
  failures: z.array(z.strictObject({ method: z.string(), target: WireAddress, error: z.string() })),
  calls: z.array(RecordedCall),
  /** HTTP round trips spent on state-bearing reads (batches). */
  roundTrips: z.int().nonnegative(),
  /**
   * True when this answer reuses the observation an earlier request made at the same pinned block hash (same
   * provider, address and selector): `calls` then lists the reads that made it, then this request's own.
   */
  observationReused: z.boolean(),
});
export type RpcObservation = z.infer<typeof RpcObservation>;

/** The evidence fields of an answer observed at a pinned block (preflight, trade simulation), spread into its schema. */
export const ObservationEvidence = {
  evidenceGrade: z.boolean(),
  evidenceStatus: z.enum(["VERIFIED", "UNVERIFIED"]),
  reason: z.string(),
  effectiveTrust: TrustLevel,
  observationBlock: ObservationBlock,
  rpcObservation: RpcObservation,
  notASafetyGuarantee: z.literal(true),
};
