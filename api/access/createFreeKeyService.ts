import type { Address, Hex } from "viem";
import { ApiError } from "../errors";
import { countDaily } from "../store/countDaily";
import type { AppDb } from "../store/createAppStore";
import { consumeIntent, findIntent, insertIntent } from "../store/intentQueries";
import { insertKey } from "../store/keyQueries";
import { generateId, type KeyEnvironment } from "./apiKeyFormat";
import { checkChallenge } from "./checkChallenge";
import type { KeyHasher } from "./createKeyHasher";
import type { WalletVerifier } from "./createWalletVerifier";
import { freeKeyMessage } from "./intentMessage";
import { intentTtlMs } from "./intentTtl";
import { mintKeySecret } from "./mintKeySecret";
import { failure, type Result, success } from "./Result";
import type { IntentEnvelope, IssuedKey } from "./records";
import { refusableTransaction } from "./refusableTransaction";
import { toIssuedKey } from "./toIssuedKey";

export type FreeKeyService = {
  /** A challenge for `wallet` to sign (issued whether or not the wallet already holds a free key). */
  challenge(wallet: Address): Promise<IntentEnvelope>;
  /** Issues the wallet's one free key for a valid signature over its challenge. */
  claim(p: { intentId: string; signature: Hex }): Promise<Result<IssuedKey>>;
};

export type CreateFreeKeyServiceParameters = {
  db: AppDb;
  wallets: WalletVerifier;
  hash: KeyHasher;
  environment: KeyEnvironment;
  clock: () => Date;
};

export function createFreeKeyService({ db, wallets, hash, environment, clock }: CreateFreeKeyServiceParameters): FreeKeyService {
  return {
    async challenge(wallet) {
      const createdAt = clock();
      const fields = { intentId: generateId("int"), wallet, createdAt, expiresAt: new Date(createdAt.getTime() + intentTtlMs) };
      const row = await insertIntent(db, {
        id: fields.intentId,
        kind: "FREE",
        wallet: wallet.toLowerCase(),
        message: freeKeyMessage(fields),
        createdAt,
        expiresAt: fields.expiresAt,
      });
      return {
        status: "CHALLENGE_ISSUED",
        intent: {
          kind: "FREE_KEY",
          intentId: row.id,
          userWallet: wallet,
          messageToSign: row.message,
          signatureMethod: "personal_sign",
          createdAt: createdAt.toISOString(),
          expiresAt: fields.expiresAt.toISOString(),
        },
        claimWith: "POST /v1/subscribe/free/claim",
      };
    },

    async claim({ intentId, signature }) {
      const intent = await findIntent(db, intentId, "FREE");
      const checked = await checkChallenge({ intent, signature, wallets, now: clock(), consumed: freeKeyExists, badSignatureStatus: 401 });
      if (!checked.ok) return failure(checked.error);
      const now = clock();
      const secret = mintKeySecret(hash, environment);
      const issued = await refusableTransaction(db, async (tx) => {
        if (!(await consumeIntent(tx, checked.value.id, now))) return freeKeyExists();
        const key = await insertKey(tx, {
          id: generateId("key"),
          secretHash: secret.hash,
          tier: "FREE",
          wallet: checked.value.wallet,
          issuedAt: now,
          expiresAt: null,
          cycleAnchor: now,
        });
        if (!key) return freeKeyExists();
        await countDaily(tx, "FREE_KEY_ISSUED", now);
        return key;
      });
      return issued.ok ? success(toIssuedKey(issued.value, { status: "ISSUED", rawKey: secret.raw })) : issued;
    },
  };
}

function freeKeyExists() {
  return new ApiError(409, "FREE_KEY_EXISTS", "this wallet already has its free key (one per wallet)");
}
