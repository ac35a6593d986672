import type { AppDb } from "../store/createAppStore";
import { latestHealthStates, oldestHealthSample, type SeriesTally, tallyRawSamples, tallyRollups } from "../store/healthQueries";
import { type HealthSeries, healthSeries } from "./healthSeries";
import type { HealthWindow, StatusHistory } from "./StatusHistory";

const hourMs = 3_600_000;
export const windowMs: Record<HealthWindow, number> = { "24h": 24 * hourMs, "7d": 7 * 24 * hourMs, "30d": 30 * 24 * hourMs };

/**
 * Share of a window's possible samples it must hold before its availability is stated: 90%. A figure
 * resting on less would let the unsampled time (a new deployment, the sampler itself down) hide an
 * outage; at one sample a minute, 24 h need 1,296 samples, 7 d 9,072 and 30 d 38,880.
 */
export const minimumCoverage = 0.9;

const descriptions: Record<HealthSeries, string> = {
  legacyCore: "Persistence (app store and index store) and Base RPC reachable",
  gateway: "The marketplace gateway's route (preflight): gateway configured, core up, evidence-grade chain",
  x402: "Paid x402 routes can settle (facilitator ready)",
  marketplace: "Market-data routes can answer: fresh index and evidence-grade chain",
};

/** Samples a window needs at `intervalSeconds` per sample. */
export const requiredSamples = (window: HealthWindow, intervalSeconds: number) =>
  Math.ceil((minimumCoverage * windowMs[window]) / (intervalSeconds * 1000));

/**
 * Availability per series over 24 h (from the raw samples) and 7 and 30 days (from the hourly
 * rollups), stated only where the window holds enough samples; below that, the earliest time it can
 * be, so a new deployment says when its figures come rather than only how few samples it has.
 */
export async function readAvailability(db: AppDb, now: Date, intervalSeconds: number): Promise<StatusHistory> {
  const since = (w: HealthWindow) => new Date(now.getTime() - windowMs[w]);
  const [day, week, month, oldest, latest] = await Promise.all([
    tallyRawSamples(db, since("24h")),
    tallyRollups(db, since("7d")),
    tallyRollups(db, since("30d")),
    oldestHealthSample(db),
    latestHealthStates(db),
  ]);
  const tallies: Record<HealthWindow, SeriesTally[]> = { "24h": day, "7d": week, "30d": month };
  return {
    sampleIntervalSeconds: intervalSeconds,
    minimumCoverage,
    samplingSince: oldest?.toISOString() ?? null,
    series: healthSeries.map((series) => {
      const latestState = latest.find((l) => l.series === series)?.state ?? null;
      const counting = latestState === "UP" || latestState === "DOWN";
      return {
        series,
        description: descriptions[series],
        latestState,
        windows: (["24h", "7d", "30d"] as const).map((window) => {
          const tally = tallies[window].find((t) => t.series === series) ?? { up: 0, counted: 0 };
          const required = requiredSamples(window, intervalSeconds);
          const measured = tally.counted >= required;
          const missingMs = (required - tally.counted) * intervalSeconds * 1000;
          return {
            window,
            status: measured ? "MEASURED" : "INSUFFICIENT_SAMPLES",
            availabilityPercent: measured ? Math.round((tally.up / tally.counted) * 100_000) / 1000 : null,
            samples: tally.counted,
            requiredSamples: required,
            earliestMeasuredAt: measured || !counting ? null : new Date(now.getTime() + missingMs).toISOString(),
          };
        }),
      };
    }),
  };
}
