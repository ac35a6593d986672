import { desc, gte, lt, min, sql } from "drizzle-orm";
import type { HealthSeries, HealthState } from "../health/healthSeries";
import type { AppDb } from "./createAppStore";
import { healthRollup, healthSample } from "./schema";

const hourOf = (at: Date) => new Date(Math.floor(at.getTime() / 3_600_000) * 3_600_000);

/**
 * Records one sample per series at `at` (already truncated to the sampling interval): a series that
 * already has a row at `at` (another replica sampled it) is skipped, the others are added to their
 * hour's rollup in the same transaction.
 */
export async function insertHealthSamples(db: AppDb, at: Date, states: Record<HealthSeries, HealthState>): Promise<number> {
  return db.transaction(async (tx) => {
    const rows = Object.entries(states).map(([series, state]) => ({ series, sampledAt: at, state }));
    const inserted = await tx.insert(healthSample).values(rows).onConflictDoNothing().returning();
    for (const row of inserted) {
      const up = row.state === "UP" ? 1 : 0;
      const counted = row.state === "NOT_CONFIGURED" ? 0 : 1;
      await tx
        .insert(healthRollup)
        .values({ series: row.series, hour: hourOf(at), up, counted })
        .onConflictDoUpdate({
          target: [healthRollup.series, healthRollup.hour],
          set: { up: sql`${healthRollup.up} + ${up}`, counted: sql`${healthRollup.counted} + ${counted}` },
        });
    }
    return inserted.length;
  });
}

/** Drops raw samples before `samplesBefore` and hourly rollups before `rollupsBefore`: the tables stay bounded. */
export async function pruneHealthSamples(db: AppDb, samplesBefore: Date, rollupsBefore: Date): Promise<void> {
  await db.delete(healthSample).where(lt(healthSample.sampledAt, samplesBefore));
  await db.delete(healthRollup).where(lt(healthRollup.hour, rollupsBefore));
}

export type SeriesTally = { series: string; up: number; counted: number };

/** UP and counted (UP or DOWN) raw samples per series since `since`. */
export async function tallyRawSamples(db: AppDb, since: Date): Promise<SeriesTally[]> {
  return db
    .select({
      series: healthSample.series,
      up: sql<number>`count(*) filter (where ${healthSample.state} = 'UP')`.mapWith(Number),
      counted: sql<number>`count(*) filter (where ${healthSample.state} <> 'NOT_CONFIGURED')`.mapWith(Number),
    })
    .from(healthSample)
    .where(gte(healthSample.sampledAt, since))
    .groupBy(healthSample.series);
}

/** UP and counted samples per series in the hourly rollups of the hours from the one holding `since`. */
export async function tallyRollups(db: AppDb, since: Date): Promise<SeriesTally[]> {
  return db
    .select({
      series: healthRollup.series,
      up: sql<number>`coalesce(sum(${healthRollup.up}), 0)`.mapWith(Number),
      counted: sql<number>`coalesce(sum(${healthRollup.counted}), 0)`.mapWith(Number),
    })
    .from(healthRollup)
    .where(gte(healthRollup.hour, hourOf(since)))
    .groupBy(healthRollup.series);
}

/**
 * When the oldest sample still recorded was taken: the oldest raw sample when it lies in the oldest
 * rollup's hour, else that hour (raw samples are kept 24 h, rollups 30 days); null before the first.
 */
export async function oldestHealthSample(db: AppDb): Promise<Date | null> {
  const [[raw], [rollup]] = await Promise.all([
    db.select({ at: min(healthSample.sampledAt) }).from(healthSample),
    db.select({ hour: min(healthRollup.hour) }).from(healthRollup),
  ]);
  const hour = rollup?.hour ?? null;
  const at = raw?.at ?? null;
  if (at && (!hour || hourOf(at).getTime() <= hour.getTime())) return at;
  return hour;
}

/** The state of each series' newest raw sample (within the last 24 h). */
export async function latestHealthStates(db: AppDb): Promise<{ series: string; state: HealthState }[]> {
  return db
    .selectDistinctOn([healthSample.series], { series: healthSample.series, state: healthSample.state })
    .from(healthSample)
    .orderBy(healthSample.series, desc(healthSample.sampledAt));
}
