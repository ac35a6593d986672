import { and, desc, eq, gt, inArray, isNull, lt, or, sql } from "drizzle-orm";
import type { AppDb } from "./createAppStore";
import { intent } from "./schema";

export type IntentRecord = typeof intent.$inferSelect;
export type NewIntent = typeof intent.$inferInsert;

const dayMs = 24 * 60 * 60 * 1000;

/**
 * How long an unconsumed intent is kept after it expires: a day for free-key and recovery challenges
 * (they cannot be claimed once expired), 30 days for purchases (a payment mined in time may be claimed
 * later).
 */
export const intentRetentionMs = { challenge: dayMs, purchase: 30 * dayMs } as const;

/**
 * Most intents one insert purges: the work an insert adds stays bounded however many rows are due,
 * and at 500 per insert the purge outpaces any rate at which intents can be created.
 */
export const intentPurgeBatchSize = 500;

const challengeKinds = intent.kind.enumValues.filter((kind) => kind !== "PURCHASE");

/** Advisory-lock class of the per-wallet intent cap (the two-key form: its own key space). */
const walletCapLockClass = 8453_0001;

/** Up to `limit` ids of unconsumed intents past their retention at `now`: a range scan of `intent_purge_idx` per kind. */
export function purgeableIntentIds(db: AppDb, now: Date, limit = intentPurgeBatchSize) {
  return db
    .select({ id: intent.id })
    .from(intent)
    .where(
      and(
        isNull(intent.consumedAt),
        or(
          and(inArray(intent.kind, challengeKinds), lt(intent.expiresAt, new Date(now.getTime() - intentRetentionMs.challenge))),
          and(eq(intent.kind, "PURCHASE"), lt(intent.expiresAt, new Date(now.getTime() - intentRetentionMs.purchase))),
        ),
      ),
    )
    .limit(limit);
}

/** The expiries of `wallet`'s open (unconsumed, unexpired) intents at `now`, latest first, at most `limit`: `intent_open_by_wallet_idx`. */
export function openIntentExpiries(db: AppDb, wallet: string, now: Date, limit: number) {
  return db
    .select({ expiresAt: intent.expiresAt })
    .from(intent)
    .where(and(eq(intent.wallet, wallet), isNull(intent.consumedAt), gt(intent.expiresAt, now)))
    .orderBy(desc(intent.expiresAt))
    .limit(limit);
}

/** Deletes at most `limit` unconsumed intents past their retention, by primary key (await it to run it). */
export function purgeExpiredIntents(db: AppDb, now: Date, limit = intentPurgeBatchSize) {
  return db.delete(intent).where(inArray(intent.id, purgeableIntentIds(db, now, limit)));
}

export type CappedInsert = { ok: true; intent: IntentRecord } | { ok: false; retryAt: Date };

/**
 * Stores a new intent unless its wallet already holds `maxOpen` open intents; then the answer is when
 * one of them expires. The count and the insert run under a transaction-scoped advisory lock on the
 * wallet, so concurrent requests (on any replica) never take it past `maxOpen`.
 */
export async function insertIntentUnderCap(db: AppDb, row: NewIntent, maxOpen: number): Promise<CappedInsert> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${walletCapLockClass}, hashtext(${row.wallet}))`);
    const open = await openIntentExpiries(tx as unknown as AppDb, row.wallet, row.createdAt, maxOpen);
    const freedAt = open[maxOpen - 1]?.expiresAt;
    if (freedAt) return { ok: false, retryAt: freedAt };
    const [inserted] = await tx.insert(intent).values(row).returning();
    if (!inserted) throw new Error("intent insert returned no row");
    return { ok: true, intent: inserted };
  });
}

/** The intent `id` of `kind`, consumed or not. */
export async function findIntent(db: AppDb, id: string, kind: IntentRecord["kind"]): Promise<IntentRecord | undefined> {
  const [row] = await db
    .select()
    .from(intent)
    .where(and(eq(intent.id, id), eq(intent.kind, kind)))
    .limit(1);
  return row;
}

/** Marks an intent consumed; false when it already was (row-locked: one caller wins under concurrency). */
export async function consumeIntent(db: AppDb, id: string, now: Date): Promise<boolean> {
  const rows = await db
    .update(intent)
    .set({ consumedAt: now })
    .where(and(eq(intent.id, id), isNull(intent.consumedAt)))
    .returning({ id: intent.id });
  return rows.length === 1;
}
