import type { Address, Hex } from "viem";
import { baseChainId } from "../../base/baseChain";
import type { ServiceOrigins } from "../config";
import { type Failure, failure, type Result, success } from "../errors";
import type { AppDb } from "../store/createAppStore";
import {
  consumeIntent,
  findIntent,
  type IntentRecord,
  insertIntentUnderCap,
  type NewIntent,
  purgeExpiredIntents,
} from "../store/intentQueries";
import { generateId, type KeyEnvironment } from "./apiKeyFormat";
import type { KeyHasher } from "./createKeyHasher";
import type { WalletVerifier } from "./createWalletVerifier";
import { type ChallengeFields, challengeOrigin } from "./intentMessage";
import { intentTtlMs } from "./intentTtl";
import { refusableTransaction } from "./refusableTransaction";
import type { TierRates } from "./toIssuedKey";

/** What every service that issues keys for signed challenges (free, purchase, recovery) is built from. */
export type ChallengeServiceParameters = {
  db: AppDb;
  /** The origins challenges may name: a claim of a challenge naming any other is refused. */
  origins: ServiceOrigins;
  wallets: WalletVerifier;
  hash: KeyHasher;
  environment: KeyEnvironment;
  clock: () => Date;
  /** Open (unconsumed, unexpired) intents one wallet may hold, of all kinds together. */
  maxOpenIntentsPerWallet: number;
  /** The per-minute limits in force, as IssuedKey states them. */
  rates: TierRates;
};

/** The signed-challenge part every intent record shares (IntentEnvelope, RecoveryIntent, PurchaseIntent). */
export type IssuedChallenge = {
  intentId: string;
  userWallet: Address;
  messageToSign: string;
  signatureMethod: "personal_sign";
  createdAt: string;
  expiresAt: string;
};

export type IssueChallengeParameters = {
  kind: IntentRecord["kind"];
  /** The origin the wallet reached us through (the public one or the fallback), named in the message. */
  origin: string;
  wallet: Address;
  now: Date;
  /** The text the wallet signs, naming every field of the challenge. */
  message: (fields: ChallengeFields) => string;
  /** Frozen terms stored with the intent (purchase terms, recovery target). */
  terms?: Partial<NewIntent>;
  /** The wallet's cap on open intents. */
  maxOpen: number;
};

/**
 * Purges a batch of intents past their retention, then stores a new intent valid 15 minutes and
 * answers the challenge the wallet signs; 429 TOO_MANY_OPEN_INTENTS (with `retryAfterSeconds`) when
 * the wallet already holds `maxOpen` open intents. The same queries run for every wallet.
 */
export async function issueChallenge(db: AppDb, p: IssueChallengeParameters): Promise<Result<IssuedChallenge>> {
  const fields: ChallengeFields = {
    origin: p.origin,
    intentId: generateId("int"),
    wallet: p.wallet,
    createdAt: p.now,
    expiresAt: new Date(p.now.getTime() + intentTtlMs),
  };
  const message = p.message(fields);
  await purgeExpiredIntents(db, p.now);
  const stored = await insertIntentUnderCap(
    db,
    {
      ...p.terms,
      id: fields.intentId,
      kind: p.kind,
      wallet: p.wallet.toLowerCase(),
      message,
      createdAt: fields.createdAt,
      expiresAt: fields.expiresAt,
    },
    p.maxOpen,
  );
  if (!stored.ok) {
    const retryAfterSeconds = Math.max(1, Math.ceil((stored.retryAt.getTime() - p.now.getTime()) / 1000));
    return failure(
      "TOO_MANY_OPEN_INTENTS",
      `this wallet already holds ${p.maxOpen} open intents (each is open 15 minutes unless claimed); claim one, or retry in ${retryAfterSeconds} s`,
      { retryAfterSeconds },
    );
  }
  return success({
    intentId: fields.intentId,
    userWallet: p.wallet,
    messageToSign: message,
    signatureMethod: "personal_sign",
    createdAt: fields.createdAt.toISOString(),
    expiresAt: fields.expiresAt.toISOString(),
  });
}

/** An intent whose wallet signed its message. */
export type SignedIntent = IntentRecord & { wallet: Address };

export type CheckChallengeParameters = {
  db: AppDb;
  origins: ServiceOrigins;
  wallets: WalletVerifier;
  kind: IntentRecord["kind"];
  intentId: string;
  signature: Hex;
  now: Date;
  /** The answer for an intent already consumed. */
  consumed: Failure;
  /** Key claims answer 401 SIGNATURE_INVALID; purchase claims 400 INTENT_SIGNATURE_INVALID (a failed intent check). */
  badSignature: "SIGNATURE_INVALID" | "INTENT_SIGNATURE_INVALID";
  /** False for purchases: their expiry bounds the payment's block time, not the claim. */
  enforceExpiry?: boolean;
};

/** The checks every claim starts with: the intent exists, is unconsumed and unexpired, and its wallet signed it. */
export async function checkChallenge(p: CheckChallengeParameters): Promise<Result<SignedIntent>> {
  const intent = await findIntent(p.db, p.intentId, p.kind);
  if (!intent) return failure("INTENT_NOT_FOUND", "no intent of this kind has this intentId");
  if (intent.consumedAt) return p.consumed;
  if ((p.enforceExpiry ?? true) && intent.expiresAt <= p.now) {
    return failure("INTENT_EXPIRED", "the intent expired (15 minutes); request a new one");
  }
  const named = challengeOrigin(intent.message);
  if (!named || named.chainId !== baseChainId || ![p.origins.public, p.origins.fallback].includes(named.origin)) {
    return failure("CHALLENGE_ORIGIN_MISMATCH", "the challenge names an origin or chain this service does not serve; request a new one");
  }
  const proof = await p.wallets.verify({ address: intent.wallet as Address, message: intent.message, signature: p.signature });
  if (proof.status === "UNAVAILABLE") {
    return failure("DATA_SOURCE_UNAVAILABLE", `the signature cannot be checked at evidence grade now (${proof.reason}); retry later`);
  }
  if (proof.status === "INVALID") {
    return failure(p.badSignature, "the signature is not the intent wallet's personal_sign of messageToSign");
  }
  return success(intent as SignedIntent);
}

/**
 * Consumes the intent and runs `work` in the same transaction: one caller wins under any concurrency,
 * and a refusal from `work` (or the intent already consumed) rolls both back.
 */
export function consumeChallenge<T>(
  db: AppDb,
  p: { intentId: string; now: Date; consumed: Failure },
  work: (tx: AppDb) => Promise<T | Failure>,
): Promise<Result<T>> {
  return refusableTransaction(db, async (tx) => ((await consumeIntent(tx, p.intentId, p.now)) ? work(tx) : p.consumed));
}
