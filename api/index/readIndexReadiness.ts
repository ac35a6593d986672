import { eq } from "drizzle-orm";
import { jsonb, pgTable, text } from "drizzle-orm/pg-core";
import type { IndexDb } from "./indexDb";

/** Ponder's own bookkeeping row (0.17): `is_ready` turns 1 when the historical backfill is done. */
const ponderMeta = pgTable("_ponder_meta", {
  key: text("key").primaryKey(),
  value: jsonb("value").$type<{ is_ready?: number }>().notNull(),
});

/** `READY` once the backfill is done, `BACKFILLING` before, `UNAVAILABLE` when the index store cannot be read. */
export type IndexReadiness = "READY" | "BACKFILLING" | "UNAVAILABLE";

/** Reads the state Ponder's own readiness probe answers from, through the same read-only `db`. */
export async function readIndexReadiness(db: IndexDb): Promise<IndexReadiness> {
  try {
    const rows = await db.select({ value: ponderMeta.value }).from(ponderMeta).where(eq(ponderMeta.key, "app")).limit(1);
    return rows[0]?.value.is_ready === 1 ? "READY" : "BACKFILLING";
  } catch {
    return "UNAVAILABLE";
  }
}
