import { and, eq, isNull, lt, ne, or } from "drizzle-orm";
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

/** Stores a new intent, and drops the unconsumed ones past their retention (so decoys and abandoned challenges do not pile up). */
export async function insertIntent(db: AppDb, row: NewIntent): Promise<IntentRecord> {
  const now = row.createdAt.getTime();
  await db
    .delete(intent)
    .where(
      and(
        isNull(intent.consumedAt),
        or(
          and(ne(intent.kind, "PURCHASE"), lt(intent.expiresAt, new Date(now - intentRetentionMs.challenge))),
          and(eq(intent.kind, "PURCHASE"), lt(intent.expiresAt, new Date(now - intentRetentionMs.purchase))),
        ),
      ),
    );
  const [inserted] = await db.insert(intent).values(row).returning();
  if (!inserted) throw new Error("intent insert returned no row");
  return inserted;
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
