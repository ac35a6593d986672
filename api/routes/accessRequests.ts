import type { Hex } from "viem";
import { z } from "zod";
import { AddressParam } from "../http/params";
import { DurationDays, PaidTier } from "../keys/planCatalogue";

export const TxHashParam = z
  .string()
  .regex(/^0x[0-9a-fA-F]{64}$/, "must be a 0x-prefixed 32-byte hex transaction hash")
  .transform((h) => h.toLowerCase() as Hex);

export const IntentIdParam = z.string().regex(/^int_[0-9a-f]{24}$/, "must be an intentId as returned by the challenge or intent");

/** A personal_sign signature: 65 bytes for an EOA, longer for ERC-1271 / ERC-6492 wallets. */
export const SignatureParam = z
  .string()
  .regex(/^0x([0-9a-fA-F]{2}){65,}$/, "must be a 0x-prefixed hex signature of at least 65 bytes")
  .transform((s) => s as Hex);

/** `{intentId, signature}`: the body of every challenge claim. */
export const ClaimBody = z.object({ intentId: IntentIdParam, signature: SignatureParam }).strict();

/** `POST /v1/subscribe/free/challenge`. */
export const FreeChallengeBody = z.object({ userWallet: AddressParam }).strict();

/** `POST /v1/subscribe/intents`: `userWallet` must be the paying wallet; renewal presents the key in x-api-key. */
export const PurchaseBody = z
  .object({
    tier: PaidTier,
    userWallet: AddressParam,
    durationDays: DurationDays.default(31),
    renewExistingKey: z.boolean().default(false),
  })
  .strict();

/** `POST /v1/subscribe/crypto`. */
export const CryptoClaimBody = z.object({ intentId: IntentIdParam, signature: SignatureParam, txHash: TxHashParam }).strict();

/** `POST /v1/keys/revoke`: `confirm` must be true. */
export const RevokeBody = z.object({ confirm: z.boolean() }).strict();

/** `POST /v1/keys/recovery/challenge`: `txHash` picks the key a payment created or renewed (optional). */
export const RecoveryChallengeBody = z.object({ userWallet: AddressParam, txHash: TxHashParam.optional() }).strict();
