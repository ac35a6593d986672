import { and, desc, eq, inArray, isNull, ne, sql } from "drizzle-orm";
import type { AppDb } from "./createAppStore";
import { apiKey, keyEpoch, redemption } from "./schema";

export type KeyRecord = typeof apiKey.$inferSelect;
/** A key as the rest of the API sees it: everything but its secret's hash. */
export type KeyInfo = Omit<KeyRecord, "secretHash">;
export type NewKey = typeof apiKey.$inferInsert;

/** The key whose secret hashes to `secretHash`, revoked or not. */
export async function findKeyBySecretHash(db: AppDb, secretHash: string): Promise<KeyRecord | undefined> {
  const [row] = await db.select().from(apiKey).where(eq(apiKey.secretHash, secretHash)).limit(1);
  return row;
}

/** The key with id `keyId`, revoked or not. */
export async function findKeyById(db: AppDb, keyId: string): Promise<KeyRecord | undefined> {
  const [row] = await db.select().from(apiKey).where(eq(apiKey.id, keyId)).limit(1);
  return row;
}

/** Inserts a key; undefined when a unique rule refused it (a second free key for the wallet). */
export async function insertKey(db: AppDb, key: NewKey): Promise<KeyRecord | undefined> {
  const [row] = await db.insert(apiKey).values(key).onConflictDoNothing().returning();
  return row;
}

/**
 * Moves an unrevoked key's expiry `days` past the later of its expiry and `now`, in one statement;
 * undefined when the key is revoked or of another tier.
 */
export async function extendKey(
  db: AppDb,
  p: { keyId: string; tier: KeyRecord["tier"]; days: number; now: Date },
): Promise<KeyRecord | undefined> {
  const [row] = await db
    .update(apiKey)
    .set({ expiresAt: sql`GREATEST(${apiKey.expiresAt}, ${p.now.toISOString()}::timestamptz) + make_interval(days => ${p.days})` })
    .where(and(eq(apiKey.id, p.keyId), eq(apiKey.tier, p.tier), isNull(apiKey.revokedAt)))
    .returning();
  return row;
}

/**
 * Replaces the secret of an unrevoked paid key (expired or not) if its secret version is still
 * `secretVersion`: the old secret stops working in the same statement. Undefined when the target
 * changed (rotated or revoked).
 */
export async function rotateKeySecret(
  db: AppDb,
  p: { keyId: string; secretVersion: number; secretHash: string },
): Promise<KeyRecord | undefined> {
  const [row] = await db
    .update(apiKey)
    .set({ secretHash: p.secretHash, secretVersion: sql`${apiKey.secretVersion} + 1` })
    .where(and(eq(apiKey.id, p.keyId), eq(apiKey.secretVersion, p.secretVersion), isNull(apiKey.revokedAt), ne(apiKey.tier, "FREE")))
    .returning();
  return row;
}

/** Revokes a key for good; undefined when it was already revoked. */
export async function revokeKey(db: AppDb, keyId: string, now: Date): Promise<KeyRecord | undefined> {
  const [row] = await db
    .update(apiKey)
    .set({ revokedAt: now })
    .where(and(eq(apiKey.id, keyId), isNull(apiKey.revokedAt)))
    .returning();
  return row;
}

/**
 * The unrevoked paid key of `wallet` (expired or not: "active" reads as "not revoked") that a
 * recovery replaces: the one a payment `txHash` created or renewed when given, else the one expiring
 * last. One query either way, found or not, reading only the two short columns a challenge stores, so a
 * found key adds one small row to parse, not a whole record (the challenge's timing must not tell them apart).
 */
export async function findRecoverableKey(
  db: AppDb,
  p: { wallet: string; txHash: string | null },
): Promise<Pick<KeyRecord, "id" | "secretVersion"> | undefined> {
  const paidBy = db
    .select({ keyId: redemption.keyId })
    .from(redemption)
    .where(eq(redemption.txHash, p.txHash ?? ""));
  const [row] = await db
    .select({ id: apiKey.id, secretVersion: apiKey.secretVersion })
    .from(apiKey)
    .where(
      and(
        eq(apiKey.wallet, p.wallet),
        ne(apiKey.tier, "FREE"),
        isNull(apiKey.revokedAt),
        p.txHash === null ? undefined : inArray(apiKey.id, paidBy),
      ),
    )
    .orderBy(desc(apiKey.expiresAt), desc(apiKey.issuedAt))
    .limit(1);
  return row;
}

/** The key epoch: it moves whenever keys are changed or deleted (a trigger on `api_key`). */
export async function readKeyEpoch(db: AppDb): Promise<number> {
  const [row] = await db.select({ epoch: keyEpoch.epoch }).from(keyEpoch).where(eq(keyEpoch.id, 1));
  if (!row) throw new Error("app.key_epoch has no row: the app store's migrations did not run");
  return row.epoch;
}
