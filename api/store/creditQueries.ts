import { and, eq, gte, sql } from "drizzle-orm";
import type { AppDb } from "./createAppStore";
import { creditUsage } from "./schema";

export type CreditUsageRow = typeof creditUsage.$inferSelect;

export type SpendCreditsParameters = {
  keyId: string;
  cost: number;
  /** Index of the current 31-day cycle of the key. */
  cycle: number;
  /** Current UTC day number. */
  day: number;
  allowance: number;
  /** Null: no daily cap. */
  dailyCap: number | null;
};

/**
 * Spends `cost` credits in one conditional upsert: the row moves to the current cycle/day (a later
 * one resets its count; an earlier one, from a replica whose clock lags, counts in the newer) and the
 * update happens only while the cycle's allowance and the daily cap hold. Concurrent spenders queue on
 * the row lock, so credits never go over the allowance. Undefined when refused.
 */
export async function spendCredits(db: AppDb, p: SpendCreditsParameters): Promise<CreditUsageRow | undefined> {
  const cap = p.dailyCap === null ? sql`NULL::integer` : sql`${p.dailyCap}::integer`;
  const [row] = await db
    .insert(creditUsage)
    .values({ keyId: p.keyId, cycle: p.cycle, used: p.cost, day: p.day, dayUsed: p.cost })
    .onConflictDoUpdate({
      target: creditUsage.keyId,
      set: {
        used: sql`CASE WHEN excluded.cycle > ${creditUsage.cycle} THEN excluded.used ELSE ${creditUsage.used} + excluded.used END`,
        cycle: sql`GREATEST(${creditUsage.cycle}, excluded.cycle)`,
        dayUsed: sql`CASE WHEN excluded.day > ${creditUsage.day} THEN excluded.day_used ELSE ${creditUsage.dayUsed} + excluded.day_used END`,
        day: sql`GREATEST(${creditUsage.day}, excluded.day)`,
      },
      setWhere: sql`(excluded.cycle > ${creditUsage.cycle} OR ${creditUsage.used} + excluded.used <= ${p.allowance}::integer)
        AND (${cap} IS NULL OR excluded.day > ${creditUsage.day} OR ${creditUsage.dayUsed} + excluded.day_used <= ${cap})`,
    })
    .returning();
  return row;
}

export async function readCreditUsage(db: AppDb, keyId: string): Promise<CreditUsageRow | undefined> {
  const [row] = await db.select().from(creditUsage).where(eq(creditUsage.keyId, keyId)).limit(1);
  return row;
}

/**
 * Gives `credits` a replica leased but did not spend back to the key's cycle `cycle` (and to day
 * `day`'s count): nothing when the row has moved to another cycle since, whose count starts afresh.
 */
export async function returnCredits(db: AppDb, p: { keyId: string; cycle: number; day: number; credits: number }): Promise<void> {
  await db
    .update(creditUsage)
    .set({
      used: sql`${creditUsage.used} - ${p.credits}::integer`,
      dayUsed: sql`CASE WHEN ${creditUsage.day} = ${p.day}::integer THEN GREATEST(0, ${creditUsage.dayUsed} - ${p.credits}::integer) ELSE ${creditUsage.dayUsed} END`,
    })
    .where(and(eq(creditUsage.keyId, p.keyId), eq(creditUsage.cycle, p.cycle), gte(creditUsage.used, p.credits)));
}
