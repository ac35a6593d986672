import { sql } from "drizzle-orm";
import { z } from "zod";
import type { AppDb } from "./createAppStore";
import { dailyCounter } from "./schema";

/** The identifier-free events counted per UTC day. */
export const DailyCounterName = z.enum(["FREE_KEY_ISSUED", "PAID_KEY_ISSUED", "KEY_RENEWED", "KEY_RECOVERED", "KEY_REVOKED"]);
export type DailyCounterName = z.infer<typeof DailyCounterName>;

/** Adds one to today's (UTC) count of `name`. */
export async function countDaily(db: AppDb, name: DailyCounterName, now: Date): Promise<void> {
  await db
    .insert(dailyCounter)
    .values({ day: now.toISOString().slice(0, 10), name, count: 1 })
    .onConflictDoUpdate({ target: [dailyCounter.day, dailyCounter.name], set: { count: sql`${dailyCounter.count} + 1` } });
}
