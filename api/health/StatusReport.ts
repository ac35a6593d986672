import { z } from "zod";
import { TrustLevel } from "../chain/ObservationBlock";
import { StatusHistory } from "./StatusHistory";

export const ProviderProbe = z.strictObject({
  name: z.string(),
  trusted: z.boolean(),
  available: z.boolean(),
  blockNumber: z.int().nonnegative().nullable(),
  latencyMs: z.int().nonnegative(),
  error: z.string().optional(),
});
export type ProviderProbe = z.infer<typeof ProviderProbe>;

const StoreProbe = z.strictObject({ available: z.boolean(), latencyMs: z.int().nonnegative(), error: z.string().optional() });

/** Status: live state of persistence, Base RPC trust, the index and verdict quality. */
export const StatusReport = z.strictObject({
  /** OPERATIONAL: all fresh and evidence grade; DEGRADED: something down or stale; UNAVAILABLE: persistence and RPC both down (HTTP 503). */
  status: z.enum(["OPERATIONAL", "DEGRADED", "UNAVAILABLE"]),
  apiVersion: z.string(),
  checkedAt: z.iso.datetime(),
  chain: z.strictObject({ chainId: z.int(), network: z.string(), source: z.enum(["devnet", "base-mainnet"]) }),
  persistence: z.strictObject({
    /** Ponder's indexed tables. */
    indexStore: StoreProbe,
    /** The API's own store: keys, credits, intents, redemptions. */
    appStore: StoreProbe,
  }),
  rpc: z.strictObject({
    available: z.boolean(),
    /** The same rule and vocabulary as an audit's observation block. */
    trustLevel: TrustLevel,
    /** Why evidence grade is not reached now (NO_PUBLIC_QUORUM, PROVIDERS_DISAGREE_ON_BLOCK_HASH, NO_PROVIDER_ANSWERED), else null. */
    reason: z.string().nullable(),
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
  paymentSettlement: z.strictObject({
    payoutAddress: z.string().nullable(),
    /** AVAILABLE when a USDC purchase can be confirmed now: a payout address, a fresh index and the app store. */
    subscriptionPayments: z.enum(["AVAILABLE", "UNAVAILABLE"]),
    confirmationsRequired: z.literal(3),
    /**
     * Per-call x402 settlement: AVAILABLE when a payment can be verified and settled now (the facilitator
     * is ready: in process, its gas key funded and the chain read at evidence grade; remote, it answers
     * that it settles Base USDC; and the app store records payments), NOT_CONFIGURED without a payout
     * address or a facilitator.
     */
    x402: z.enum(["AVAILABLE", "UNAVAILABLE", "NOT_CONFIGURED"]),
    /** Which facilitator settles: our own gas key in this process, or a remote one; null when not configured. */
    x402Facilitator: z.enum(["IN_PROCESS", "REMOTE"]).nullable(),
    /** Why x402 is UNAVAILABLE (GAS_KEY_UNFUNDED, RPC_UNREACHABLE, CHAIN_NOT_EVIDENCE_GRADE, APP_STORE_UNAVAILABLE, FACILITATOR_UNREACHABLE, ...), else null. */
    x402Reason: z.string().nullable(),
  }),
  /** Recorded availability per series and window (GET /v1/status; absent when the app store cannot be read). */
  history: StatusHistory.optional(),
});
export type StatusReport = z.infer<typeof StatusReport>;
