import type { Address, Hex } from "viem";
import { failure, type Result, success } from "../errors";
import { countDaily, counterBucketOf, utcDay } from "../store/countDaily";
import { findRecoverableKey, rotateKeySecret } from "../store/keyQueries";
import { type ChallengeServiceParameters, checkChallenge, consumeChallenge, type IssuedChallenge, issueChallenge } from "./challenges";
import { recoveryMessage } from "./intentMessage";
import { mintKeySecret } from "./mintKeySecret";
import type { IssuedKey } from "./records";
import { toIssuedKey } from "./toIssuedKey";

export type RecoveryChallenge = { status: "CHALLENGE_ISSUED"; intent: IssuedChallenge & { kind: "RECOVERY" } };

export type RecoveryService = {
  /**
   * A challenge for `wallet`, real or decoy: the same queries, the same row written, the same cap on
   * open intents and the same envelope whether or not the wallet holds a recoverable key.
   */
  challenge(p: { wallet: Address; txHash: Hex | null; origin: string }): Promise<Result<RecoveryChallenge>>;
  /** Revokes the target's secret and issues its replacement in one statement; tier and expiry are kept. */
  claim(p: { intentId: string; signature: Hex }): Promise<Result<IssuedKey>>;
};

export type CreateRecoveryServiceParameters = ChallengeServiceParameters & {
  /** Called once a secret was replaced: this replica's cached keys are dropped at once. */
  onKeyChanged: () => void;
};

export function createRecoveryService(deps: CreateRecoveryServiceParameters): RecoveryService {
  const { db, origins, wallets, hash, environment, clock } = deps;
  const challengeConsumed = failure("RECOVERY_CHALLENGE_CONSUMED", "this recovery challenge was already used; request a new one");
  return {
    async challenge({ wallet, txHash, origin }) {
      const now = clock();
      const target = await findRecoverableKey(db, { wallet: wallet.toLowerCase(), txHash: txHash?.toLowerCase() ?? null });
      const challenge = await issueChallenge(db, {
        kind: "RECOVERY",
        origin,
        wallet,
        now,
        message: recoveryMessage,
        terms: { targetKeyId: target?.id ?? null, targetSecretVersion: target?.secretVersion ?? null },
        maxOpen: deps.maxOpenIntentsPerWallet,
      });
      return challenge.ok ? success({ status: "CHALLENGE_ISSUED", intent: { kind: "RECOVERY", ...challenge.value } }) : challenge;
    },

    async claim({ intentId, signature }) {
      const checked = await checkChallenge({
        db,
        origins,
        wallets,
        kind: "RECOVERY",
        intentId,
        signature,
        now: clock(),
        consumed: challengeConsumed,
        badSignature: "SIGNATURE_INVALID",
      });
      if (!checked.ok) return checked;
      const { targetKeyId, targetSecretVersion } = checked.value;
      if (targetKeyId === null || targetSecretVersion === null) {
        return failure("NO_RECOVERABLE_KEY", "this wallet holds no paid key to recover (free and revoked keys cannot be recovered)");
      }
      const now = clock();
      const secret = mintKeySecret(hash, environment);
      const replaced = await consumeChallenge(db, { intentId, now, consumed: challengeConsumed }, async (tx) => {
        const key = await rotateKeySecret(tx, { keyId: targetKeyId, secretVersion: targetSecretVersion, secretHash: secret.hash });
        if (!key) {
          return failure("RECOVERY_TARGET_CHANGED", "the key changed since the challenge (recovered or revoked); request a new challenge");
        }
        await countDaily(tx, "KEY_RECOVERED", utcDay(now), counterBucketOf(environment));
        return key;
      });
      if (replaced.ok) deps.onKeyChanged();
      return replaced.ok ? success(toIssuedKey(replaced.value, { status: "REPLACED", rawKey: secret.raw, rates: deps.rates })) : replaced;
    },
  };
}
