import type { AppDb } from "../store/createAppStore";
import { insertHealthSamples, pruneHealthSamples } from "../store/healthQueries";
import { healthStates } from "./healthSeries";
import { windowMs } from "./readAvailability";
import type { StatusReport } from "./StatusReport";

export type HealthSampler = {
  /** Takes one sample now (by the sampler's clock): one row per series, then prunes. */
  sampleOnce(): Promise<void>;
  /** Samples now, then every interval until `stop()` (the timer does not keep the process alive). */
  start(): void;
  stop(): void;
};

export type CreateHealthSamplerParameters = {
  db: AppDb;
  /** The live status the samples are judged from (the status route's own check). */
  check: () => Promise<StatusReport>;
  gatewayConfigured: boolean;
  intervalSeconds: number;
  clock?: () => Date;
};

/**
 * Records the health series every `intervalSeconds` in the app store: the sample time is truncated to
 * the interval (replicas sampling the same interval write one row per series). Raw samples are kept
 * for 24 h and hourly rollups for 30 days, so the tables hold at most 24 h of samples plus 720 rollups
 * per series.
 */
export function createHealthSampler({
  db,
  check,
  gatewayConfigured,
  intervalSeconds,
  clock = () => new Date(),
}: CreateHealthSamplerParameters): HealthSampler {
  const intervalMs = intervalSeconds * 1000;
  let timer: NodeJS.Timeout | undefined;
  const sampleOnce = async () => {
    const report = await check();
    const now = clock();
    const at = new Date(Math.floor(now.getTime() / intervalMs) * intervalMs);
    await insertHealthSamples(db, at, healthStates(report, gatewayConfigured));
    await pruneHealthSamples(db, new Date(now.getTime() - windowMs["24h"]), new Date(now.getTime() - windowMs["30d"] - 3_600_000));
  };
  return {
    sampleOnce,
    start() {
      if (timer) return;
      // A failed sample (the store down) is simply missing: availability counts only what was recorded.
      const sample = () => void sampleOnce().catch(() => {});
      sample();
      timer = setInterval(sample, intervalMs);
      timer.unref();
    },
    stop() {
      clearInterval(timer);
      timer = undefined;
    },
  };
}
