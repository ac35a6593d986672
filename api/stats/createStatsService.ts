import { type CounterBucket, readDailyCounts, utcDay } from "../store/countDaily";
import type { AppDb } from "../store/createAppStore";
import type { UsageCounters } from "./createUsageCounters";
import type { AggregateStats, PublicStats } from "./StatsResponse";

export type StatsService = {
  /** Which counters of this deployment's bucket were active in the last `days` days: no figure. */
  publicView(days: number): Promise<PublicStats>;
  /** Every counter of `bucket`, exact, per day and in total, over the last `days` days. */
  operatorView(days: number, bucket: CounterBucket): Promise<AggregateStats>;
};

export type CreateStatsServiceParameters = {
  db: AppDb;
  counters: UsageCounters;
  /** This deployment's bucket: the public view's. */
  bucket: CounterBucket;
  clock?: () => Date;
};

const dayMs = 86_400_000;

/** The stats of GET /v1/stats, read from the daily counters (the counts still in memory are written first). */
export function createStatsService({ db, counters, bucket, clock = () => new Date() }: CreateStatsServiceParameters): StatsService {
  const read = async (days: number, of: CounterBucket) => {
    await counters.flush();
    const now = clock();
    const from = utcDay(new Date(now.getTime() - (days - 1) * dayMs));
    const to = utcDay(now);
    return { from, to, rows: await readDailyCounts(db, of, from, to) };
  };
  return {
    async publicView(days) {
      const { from, to, rows } = await read(days, bucket);
      const activeCounters = [...new Set(rows.filter((r) => r.count > 0).map((r) => r.name))].sort();
      const note = "Redacted: which counters moved, never how much. Operators read the exact daily counts with OPERATOR_STATS_TOKEN.";
      return { view: "PUBLIC", days, from, to, activeCounters, note };
    },
    async operatorView(days, of) {
      const { from, to, rows } = await read(days, of);
      const totals: Record<string, number> = {};
      const byDay = new Map<string, Record<string, number>>();
      for (const { day, name, count } of rows) {
        totals[name] = (totals[name] ?? 0) + count;
        byDay.set(day, { ...byDay.get(day), [name]: count });
      }
      const daily = [...byDay].map(([day, counts]) => ({ day, counts }));
      return { view: "OPERATOR", bucket: of, days, from, to, totals, daily };
    },
  };
}
