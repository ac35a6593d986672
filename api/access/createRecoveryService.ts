import type { Address, Hex } from "viem";
import { ApiError } from "../errors";
import { countDaily } from "../store/countDaily";
import type { AppDb } from "../store/createAppStore";
import { consumeIntent, findIntent, insertIntent } from "../store/intentQueries";
import { findRecoverableKey, rotateKeySecret } from "../store/keyQueries";
import { generateId, type KeyEnvironment } from "./apiKeyFormat";
import { checkChallenge } from "./checkChallenge";
import type { KeyHasher } from "./createKeyHasher";
import type { WalletVerifier } from "./createWalletVerifier";
import { recoveryMessage } from "./intentMessage";
import { intentTtlMs } from "./intentTtl";
import { mintKeySecret } from "./mintKeySecret";
import { failure, type Result, success } from "./Result";
import type { IssuedKey, RecoveryIntent } from "./records";
import { refusableTransaction } from "./refusableTransaction";
import { toIssuedKey } from "./toIssuedKey";

export type RecoveryService = {
  /**
   * A challenge for `wallet`, real or decoy: the same queries, the same row written and the same
   * envelope whether or not the wallet holds a recoverable key.
   */
  challenge(p: { wallet: Address; txHash: Hex | null }): Promise<RecoveryIntent>;
  /** Revokes the target's secret and issues its replacement in one statement; tier and expiry are kept. */
  claim(p: { intentId: string; signature: Hex }): Promise<Result<IssuedKey>>;
};

export type CreateRecoveryServiceParameters = {
  db: AppDb;
  wallets: WalletVerifier;
  hash: KeyHasher;
  environment: KeyEnvironment;
  clock: () => Date;
};

export function createRecoveryService({ db, wallets, hash, environment, clock }: CreateRecoveryServiceParameters): RecoveryService {
  return {
    async challenge({ wallet, txHash }) {
      const createdAt = clock();
      const target = await findRecoverableKey(db, { wallet: wallet.toLowerCase(), txHash: txHash?.toLowerCase() ?? null, now: createdAt });
      const fields = { intentId: generateId("int"), wallet, createdAt, expiresAt: new Date(createdAt.getTime() + intentTtlMs) };
      const message = recoveryMessage(fields);
      await insertIntent(db, {
        id: fields.intentId,
        kind: "RECOVERY",
        wallet: wallet.toLowerCase(),
        message,
        createdAt,
        expiresAt: fields.expiresAt,
        targetKeyId: target?.id ?? null,
        targetSecretVersion: target?.secretVersion ?? null,
      });
      return {
        status: "CHALLENGE_ISSUED",
        intent: {
          kind: "RECOVERY",
          intentId: fields.intentId,
          userWallet: wallet,
          messageToSign: message,
          signatureMethod: "personal_sign",
          createdAt: createdAt.toISOString(),
          expiresAt: fields.expiresAt.toISOString(),
        },
        claimWith: "POST /v1/keys/recovery/claim",
      };
    },

    async claim({ intentId, signature }) {
      const checked = await checkChallenge({
        intent: await findIntent(db, intentId, "RECOVERY"),
        signature,
        wallets,
        now: clock(),
        consumed: () => new ApiError(409, "RECOVERY_CHALLENGE_CONSUMED", "this recovery challenge was already used; request a new one"),
        badSignatureStatus: 401,
      });
      if (!checked.ok) return failure(checked.error);
      const { id, targetKeyId, targetSecretVersion } = checked.value;
      if (targetKeyId === null || targetSecretVersion === null) {
        return failure(
          new ApiError(
            409,
            "NO_RECOVERABLE_KEY",
            "this wallet holds no active paid key to recover (free and revoked keys cannot be recovered)",
          ),
        );
      }
      const now = clock();
      const secret = mintKeySecret(hash, environment);
      const replaced = await refusableTransaction(db, async (tx) => {
        if (!(await consumeIntent(tx, id, now))) {
          return new ApiError(409, "RECOVERY_CHALLENGE_CONSUMED", "this recovery challenge was already used; request a new one");
        }
        const key = await rotateKeySecret(tx, { keyId: targetKeyId, secretVersion: targetSecretVersion, secretHash: secret.hash, now });
        if (!key) {
          return new ApiError(
            409,
            "RECOVERY_TARGET_CHANGED",
            "the key changed since the challenge (recovered, revoked or expired); request a new challenge",
          );
        }
        await countDaily(tx, "KEY_RECOVERED", now);
        return key;
      });
      return replaced.ok ? success(toIssuedKey(replaced.value, { status: "REPLACED", rawKey: secret.raw })) : replaced;
    },
  };
}
