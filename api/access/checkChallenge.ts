import type { Address, Hex } from "viem";
import { ApiError, dataSourceUnavailable } from "../errors";
import type { IntentRecord } from "../store/intentQueries";
import type { WalletVerifier } from "./createWalletVerifier";
import { failure, type Result, success } from "./Result";

export type CheckChallengeParameters = {
  intent: IntentRecord | undefined;
  signature: Hex;
  wallets: WalletVerifier;
  now: Date;
  /** The error for an intent already consumed. */
  consumed: () => ApiError;
  /** Status of a signature that is not the intent wallet's (401 for key claims, 400 for purchases). */
  badSignatureStatus: 400 | 401;
  /** False for purchases: their expiry bounds the payment's block time, not the claim. */
  enforceExpiry?: boolean;
};

/** The checks every signed-intent claim starts with: the intent exists, is unconsumed and unexpired, and its wallet signed it. */
export async function checkChallenge(p: CheckChallengeParameters): Promise<Result<IntentRecord & { wallet: Address }>> {
  const { intent } = p;
  if (!intent) return failure(new ApiError(400, "INTENT_NOT_FOUND", "no intent of this kind has this intentId"));
  if (intent.consumedAt) return failure(p.consumed());
  if ((p.enforceExpiry ?? true) && intent.expiresAt <= p.now) {
    return failure(new ApiError(400, "INTENT_EXPIRED", "the intent expired (15 minutes); request a new one"));
  }
  const proof = await p.wallets.verify({ address: intent.wallet as Address, message: intent.message, signature: p.signature });
  if (proof === "UNAVAILABLE")
    return failure(dataSourceUnavailable("the signature cannot be checked now (no RPC provider answered); retry later"));
  if (proof === "INVALID")
    return failure(
      new ApiError(p.badSignatureStatus, "SIGNATURE_INVALID", "the signature is not the intent wallet's personal_sign of messageToSign"),
    );
  return success(intent as IntentRecord & { wallet: Address });
}
