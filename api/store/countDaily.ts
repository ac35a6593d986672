import { and, between, eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { KeyEnvironment } from "../keys/apiKeyFormat";
import type { AppDb } from "./createAppStore";
import { dailyCounter } from "./schema";

/** Where a deployment's counts go: `production` for live keys (Base mainnet), `test` for the devnet's. */
export const CounterBucket = z.enum(["production", "test"]);
export type CounterBucket = z.infer<typeof CounterBucket>;

export const counterBucketOf = (environment: KeyEnvironment): CounterBucket => (environment === "live" ? "production" : "test");

let lastDay = { number: Number.NaN, text: "" };

/**
 * The UTC day of `now`, YYYY-MM-DD. The last day's text is kept: every served answer is counted under
 * its day, and `toISOString` on each was 1.5% of a keyed call's time under load.
 */
export function utcDay(now: Date): string {
  const number = Math.floor(now.getTime() / 86_400_000);
  if (number !== lastDay.number) lastDay = { number, text: now.toISOString().slice(0, 10) };
  return lastDay.text;
}

/** Adds `by` to the count of `name` on `day` (UTC, YYYY-MM-DD) in `bucket`. */
export async function countDaily(db: AppDb, name: string, day: string, bucket: CounterBucket, by = 1): Promise<void> {
  await db
    .insert(dailyCounter)
    .values({ day, bucket, name, count: by })
    .onConflictDoUpdate({
      target: [dailyCounter.day, dailyCounter.bucket, dailyCounter.name],
      set: { count: sql`${dailyCounter.count} + ${by}` },
    });
}

export type DailyCount = { day: string; name: string; count: number };

/** Every count of `bucket` from `fromDay` to `toDay` (inclusive, YYYY-MM-DD), by day then name. */
export async function readDailyCounts(db: AppDb, bucket: CounterBucket, fromDay: string, toDay: string): Promise<DailyCount[]> {
  return db
    .select({ day: dailyCounter.day, name: dailyCounter.name, count: dailyCounter.count })
    .from(dailyCounter)
    .where(and(eq(dailyCounter.bucket, bucket), between(dailyCounter.day, fromDay, toDay)))
    .orderBy(dailyCounter.day, dailyCounter.name);
}
