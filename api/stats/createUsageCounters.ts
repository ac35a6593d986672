import { type CounterBucket, countDaily, utcDay } from "../store/countDaily";
import type { AppDb } from "../store/createAppStore";

export type UsageCounters = {
  /** Adds one to today's count of `name` (in memory until the next flush). */
  add(name: string): void;
  /** Writes the counts held in memory to the store (and keeps any that failed for the next flush). */
  flush(): Promise<void>;
  /** Stops the periodic flush after a last one. */
  stop(): Promise<void>;
};

export type CreateUsageCountersParameters = {
  db: AppDb;
  bucket: CounterBucket;
  clock?: () => Date;
  /** How often counts held in memory are written; 0: only on `flush()`. */
  flushIntervalMs?: number;
};

/**
 * Daily counters of the server's own work (answers served, product events), summed in memory and
 * written every `flushIntervalMs` as one upsert per name and day: a busy route costs a map update,
 * not a write to one hot row per request. Names are a closed vocabulary (CounterName), so the map is
 * bounded; a crash loses at most one interval's counts.
 */
export function createUsageCounters({
  db,
  bucket,
  clock = () => new Date(),
  flushIntervalMs = 10_000,
}: CreateUsageCountersParameters): UsageCounters {
  let pending = new Map<string, number>();
  let flushing: Promise<void> = Promise.resolve();
  const flushOnce = async () => {
    const batch = pending;
    pending = new Map();
    for (const [key, by] of batch) {
      const [day, name] = key.split("|") as [string, string];
      try {
        await countDaily(db, name, day, bucket, by);
      } catch {
        pending.set(key, (pending.get(key) ?? 0) + by);
      }
    }
  };
  const flush = () => {
    flushing = flushing.then(flushOnce);
    return flushing;
  };
  const timer = flushIntervalMs > 0 ? setInterval(() => void flush(), flushIntervalMs) : undefined;
  timer?.unref();
  return {
    add(name) {
      const key = `${utcDay(clock())}|${name}`;
      pending.set(key, (pending.get(key) ?? 0) + 1);
    },
    flush,
    async stop() {
      clearInterval(timer);
      await flush();
    },
  };
}
