import { and, eq, isNull } from "drizzle-orm";
import type { AppDb } from "./createAppStore";
import { intent } from "./schema";

export type IntentRecord = typeof intent.$inferSelect;
export type NewIntent = typeof intent.$inferInsert;

export async function insertIntent(db: AppDb, row: NewIntent): Promise<IntentRecord> {
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
