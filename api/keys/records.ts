import { z } from "zod";
import { baseNetwork } from "../../base/baseChain";
import { WireAddress } from "../http/params";
import { DurationDays, PaidTier, Tier } from "./planCatalogue";

const txHash = z.string().regex(/^0x[0-9a-fA-F]{64}$/);
const isoTime = z.string();

/** The signed-challenge part shared by every intent: sign `messageToSign` with personal_sign, send `intentId`. */
const Challenge = z.object({
  intentId: z.string(),
  userWallet: WireAddress,
  messageToSign: z.string(),
  signatureMethod: z.literal("personal_sign"),
  createdAt: isoTime,
  expiresAt: isoTime,
});

/** Free-key challenge (`POST /v1/subscribe/free/challenge`) and recovery challenge alike. */
export const IntentEnvelope = z.object({
  status: z.literal("CHALLENGE_ISSUED"),
  intent: Challenge.extend({ kind: z.enum(["FREE_KEY", "RECOVERY"]) }),
  /** The route that takes `{intentId, signature}`. */
  claimWith: z.string(),
});
export type IntentEnvelope = z.infer<typeof IntentEnvelope>;

/** `POST /v1/keys/recovery/challenge`: the same envelope for a known and an unknown wallet. */
export const RecoveryIntent = IntentEnvelope;
export type RecoveryIntent = IntentEnvelope;

/** `POST /v1/subscribe/intents`: the frozen terms of one purchase, valid 15 minutes. */
export const PurchaseIntent = z.object({
  status: z.literal("INTENT_CREATED"),
  intent: Challenge.extend({
    kind: z.literal("PURCHASE"),
    tier: PaidTier,
    durationDays: DurationDays,
    /** The key whose expiry a claim extends; null: a claim issues a new key. */
    renewKeyId: z.string().nullable(),
    payTo: WireAddress,
    network: z.literal(baseNetwork),
    confirmationsRequired: z.number().int(),
    priceUsd: z.string(),
    usdc: z.object({ asset: WireAddress, amount: z.string(), decimals: z.number().int() }),
    /** Null when no live ETH quote exists: pay in USDC. */
    eth: z.object({ amountWei: z.string(), weiPerUsd: z.string(), quotedAt: isoTime, quoteSource: z.string() }).nullable(),
  }),
  claimWith: z.string(),
});
export type PurchaseIntent = z.infer<typeof PurchaseIntent>;

const Entitlements = z.object({
  creditsPerCycle: z.number().int(),
  cycleDays: z.number().int(),
  /** Credits per UTC day (free keys); null: no daily cap. */
  dailyLimit: z.number().int().nullable(),
  rateLimitPerMinute: z.number().int(),
});

/** A key as issued, renewed or replaced. `apiKey` is the raw secret, present only when it is new. */
export const IssuedKey = z.object({
  status: z.enum(["ISSUED", "RENEWED", "REPLACED"]),
  /** Shown exactly once (ISSUED, REPLACED); null on RENEWED: the presented secret is unchanged. */
  apiKey: z.string().nullable(),
  keyId: z.string(),
  tier: Tier,
  wallet: WireAddress,
  issuedAt: isoTime,
  /** Null for free keys (they do not expire). */
  expiresAt: isoTime.nullable(),
  entitlements: Entitlements,
  payment: z.object({ txHash, asset: z.enum(["USDC", "ETH"]), amount: z.string() }).nullable(),
  notice: z.string(),
});
export type IssuedKey = z.infer<typeof IssuedKey>;

/** What a key's credits stand at: the current 31-day cycle, and the day for capped keys. */
export const CreditBalance = z.object({
  cycleStartedAt: isoTime,
  cycleEndsAt: isoTime,
  allowance: z.number().int(),
  used: z.number().int(),
  remaining: z.number().int(),
  daily: z.object({ limit: z.number().int(), used: z.number().int(), remaining: z.number().int(), resetsAt: isoTime }).nullable(),
});
export type CreditBalance = z.infer<typeof CreditBalance>;

/** `GET /v1/keys/self`: the presented key's metadata; never its secret. */
export const KeySelf = z.object({
  keyId: z.string(),
  status: z.enum(["ACTIVE", "EXPIRED"]),
  tier: Tier,
  wallet: WireAddress,
  issuedAt: isoTime,
  expiresAt: isoTime.nullable(),
  entitlements: Entitlements,
  credits: CreditBalance,
});
export type KeySelf = z.infer<typeof KeySelf>;

/** `POST /v1/keys/revoke`. */
export const RevokeResult = z.object({ status: z.literal("REVOKED"), message: z.string(), revokedAt: isoTime });
export type RevokeResult = z.infer<typeof RevokeResult>;

const PlanPrice = z.object({ durationDays: DurationDays, priceUsd: z.string(), amountUsdc: z.string() });

/** `GET /v1/plans`: the authoritative plan and price catalogue. */
export const Plans = z.object({
  currency: z.literal("USD"),
  creditCycleDays: z.number().int(),
  plans: z.array(
    z.object({
      tier: Tier,
      entitlements: Entitlements,
      /** Empty for the free tier (one free key per wallet, claimed by signature). */
      prices: z.array(PlanPrice),
    }),
  ),
  payment: z.object({
    network: z.literal(baseNetwork),
    payTo: WireAddress.nullable(),
    usdc: z.object({ asset: WireAddress, decimals: z.number().int() }),
    /** ETH is accepted when a purchase intent carries a live quote (`intent.eth`). */
    eth: z.string(),
    confirmationsRequired: z.number().int(),
    intentValidityMinutes: z.number().int(),
  }),
  credits: z.array(z.object({ route: z.string(), credits: z.number().int() })),
  x402: z.array(z.object({ route: z.string(), priceUsd: z.number() })),
});
export type Plans = z.infer<typeof Plans>;
