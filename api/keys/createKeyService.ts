import { getAddress } from "viem";
import type { CreditService } from "../access/createCreditService";
import { countDaily, counterBucketOf, utcDay } from "../store/countDaily";
import type { AppDb } from "../store/createAppStore";
import { findKeyById, type KeyInfo, revokeKey } from "../store/keyQueries";
import { apiKeyPattern, type KeyEnvironment } from "./apiKeyFormat";
import { type KeyCache, keyCacheMaxEntries } from "./createKeyCache";
import { type KeyHasher, rememberKeyHashes } from "./createKeyHasher";
import type { KeySelf, RevokeResult } from "./records";
import { entitlementsOf, type TierRates } from "./toIssuedKey";

export type Authentication = { ok: true; key: KeyInfo; expired: boolean } | { ok: false; reason: "INVALID" | "REVOKED" };

export type KeyService = {
  /** Finds the key a raw secret belongs to, by its keyed hash; `fingerprint`: the secret's `fingerprintCredential`, when the caller has it. */
  authenticate(rawKey: string, fingerprint?: string): Promise<Authentication>;
  /** KeySelf of an authenticated key. */
  describe(key: KeyInfo): Promise<KeySelf>;
  /** Revokes the key for good. */
  revoke(key: KeyInfo): Promise<RevokeResult>;
};

export type CreateKeyServiceParameters = {
  db: AppDb;
  hash: KeyHasher;
  /** Key lookups by secret hash, cached within the revocation bound. */
  cache: KeyCache;
  credits: CreditService;
  clock: () => Date;
  rates: TierRates;
  /** The deployment's key environment: which bucket its revocations are counted in. */
  environment: KeyEnvironment;
};

export function createKeyService({ db, hash, cache, credits, clock, rates, environment }: CreateKeyServiceParameters): KeyService {
  const secretHashOf = rememberKeyHashes(hash, keyCacheMaxEntries);
  return {
    async authenticate(rawKey, fingerprint) {
      if (!apiKeyPattern.test(rawKey)) return { ok: false, reason: "INVALID" };
      const found = await cache.find(secretHashOf(rawKey, fingerprint));
      if (!found) return { ok: false, reason: "INVALID" };
      const { secretHash: _, ...key } = found;
      if (key.revokedAt) return { ok: false, reason: "REVOKED" };
      return { ok: true, key, expired: key.expiresAt !== null && key.expiresAt <= clock() };
    },
    async describe(key) {
      return {
        keyId: key.id,
        status: key.expiresAt !== null && key.expiresAt <= clock() ? "EXPIRED" : "ACTIVE",
        tier: key.tier,
        wallet: getAddress(key.wallet),
        issuedAt: key.issuedAt.toISOString(),
        expiresAt: key.expiresAt?.toISOString() ?? null,
        entitlements: entitlementsOf(key.tier, rates),
        credits: await credits.balance(key),
      };
    },
    async revoke(key) {
      const now = clock();
      const revoked = await db.transaction(async (tx) => {
        const row = await revokeKey(tx, key.id, now);
        if (row) await countDaily(tx, "KEY_REVOKED", utcDay(now), counterBucketOf(environment));
        // Revoked already (a racing call): the answer names the time the store kept.
        return row ?? (await findKeyById(tx, key.id));
      });
      cache.invalidate();
      const revokedAt = (revoked?.revokedAt ?? now).toISOString();
      return { status: "REVOKED", message: `API key ${key.id} is revoked permanently; it can no longer be used or recovered.`, revokedAt };
    },
  };
}
