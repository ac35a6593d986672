import type { Address, Hex } from "viem";
import { failure, type Result, success } from "../errors";
import { countDaily, counterBucketOf, utcDay } from "../store/countDaily";
import { insertKey } from "../store/keyQueries";
import { generateId } from "./apiKeyFormat";
import { type ChallengeServiceParameters, checkChallenge, consumeChallenge, type IssuedChallenge, issueChallenge } from "./challenges";
import { freeKeyMessage } from "./intentMessage";
import { mintKeySecret } from "./mintKeySecret";
import type { IssuedKey } from "./records";
import { toIssuedKey } from "./toIssuedKey";

export type FreeKeyChallenge = { status: "CHALLENGE_ISSUED"; intent: IssuedChallenge & { kind: "FREE_KEY" } };

export type FreeKeyService = {
  /** A challenge for `wallet` to sign (issued whether or not the wallet already holds a free key), within its cap on open intents. */
  challenge(wallet: Address, origin: string): Promise<Result<FreeKeyChallenge>>;
  /** Issues the wallet's one free key for a valid signature over its challenge. */
  claim(p: { intentId: string; signature: Hex }): Promise<Result<IssuedKey>>;
};

export type CreateFreeKeyServiceParameters = ChallengeServiceParameters;

export function createFreeKeyService(deps: CreateFreeKeyServiceParameters): FreeKeyService {
  const { db, origins, wallets, hash, environment, clock } = deps;
  const freeKeyExists = failure("FREE_KEY_EXISTS", "this wallet already has its free key (one per wallet)");
  return {
    async challenge(wallet, origin) {
      const challenge = await issueChallenge(db, {
        kind: "FREE",
        origin,
        wallet,
        now: clock(),
        message: freeKeyMessage,
        maxOpen: deps.maxOpenIntentsPerWallet,
      });
      return challenge.ok ? success({ status: "CHALLENGE_ISSUED", intent: { kind: "FREE_KEY", ...challenge.value } }) : challenge;
    },

    async claim({ intentId, signature }) {
      const checked = await checkChallenge({
        db,
        origins,
        wallets,
        kind: "FREE",
        intentId,
        signature,
        now: clock(),
        consumed: freeKeyExists,
        badSignature: "SIGNATURE_INVALID",
      });
      if (!checked.ok) return checked;
      const now = clock();
      const secret = mintKeySecret(hash, environment);
      const issued = await consumeChallenge(db, { intentId, now, consumed: freeKeyExists }, async (tx) => {
        const key = await insertKey(tx, {
          id: generateId("key"),
          secretHash: secret.hash,
          tier: "FREE",
          wallet: checked.value.wallet,
          issuedAt: now,
          expiresAt: null,
          cycleAnchor: now,
        });
        if (!key) return freeKeyExists;
        await countDaily(tx, "FREE_KEY_ISSUED", utcDay(now), counterBucketOf(environment));
        return key;
      });
      return issued.ok ? success(toIssuedKey(issued.value, { status: "ISSUED", rawKey: secret.raw, rates: deps.rates })) : issued;
    },
  };
}
