import { z } from "zod";

export const ProviderProbe = z.strictObject({
  name: z.string(),
  trusted: z.boolean(),
  available: z.boolean(),
  blockNumber: z.int().nonnegative().nullable(),
  latencyMs: z.int().nonnegative(),
  error: z.string().optional(),
});
export type ProviderProbe = z.infer<typeof ProviderProbe>;

/** Status: live state of persistence, Base RPC trust, the index and verdict quality. */
export const StatusReport = z.strictObject({
  /** OPERATIONAL: all fresh and evidence grade; DEGRADED: something down or stale; UNAVAILABLE: persistence and RPC both down (HTTP 503). */
  status: z.enum(["OPERATIONAL", "DEGRADED", "UNAVAILABLE"]),
  apiVersion: z.string(),
  checkedAt: z.iso.datetime(),
  chain: z.strictObject({ chainId: z.int(), network: z.string(), source: z.enum(["devnet", "base-mainnet"]) }),
  persistence: z.strictObject({
    indexStore: z.strictObject({ available: z.boolean(), latencyMs: z.int().nonnegative(), error: z.string().optional() }),
  }),
  rpc: z.strictObject({
    available: z.boolean(),
    trustLevel: z.enum(["TRUSTED_PRIMARY", "PUBLIC_QUORUM", "INSUFFICIENT"]),
    providers: z.array(ProviderProbe),
  }),
  index: z.strictObject({
    headBlock: z.int().nonnegative().nullable(),
    headBlockHash: z.string().nullable(),
    headTimestamp: z.iso.datetime().nullable(),
    chainHeadBlock: z.int().nonnegative().nullable(),
    lagBlocks: z.int().nonnegative().nullable(),
    maxLagBlocks: z.int().nonnegative(),
    stale: z.boolean(),
  }),
  verdictQuality: z.enum(["EVIDENCE_GRADE", "UNVERIFIED"]),
});
export type StatusReport = z.infer<typeof StatusReport>;
