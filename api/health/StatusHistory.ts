import { z } from "zod";

export const HealthWindow = z.enum(["24h", "7d", "30d"]);
export type HealthWindow = z.infer<typeof HealthWindow>;

const WindowAvailability = z.strictObject({
  window: HealthWindow,
  /** MEASURED once the window holds `requiredSamples`, else INSUFFICIENT_SAMPLES (and no figure). */
  status: z.enum(["MEASURED", "INSUFFICIENT_SAMPLES"]),
  /** Share of the counted samples that were UP, in percent (three decimals); null unless MEASURED. */
  availabilityPercent: z.number().min(0).max(100).nullable(),
  /** Samples in the window that count (UP or DOWN; NOT_CONFIGURED ones do not). */
  samples: z.int().nonnegative(),
  requiredSamples: z.int().positive(),
  /**
   * The earliest time the window can be MEASURED: the answer's time plus its missing samples at one
   * per `sampleIntervalSeconds` (exact from a fresh start; later when older samples leave the window
   * first). Null once MEASURED, and for a series whose newest sample is not UP or DOWN (none to count).
   */
  earliestMeasuredAt: z.iso.datetime().nullable(),
});

/** Recorded availability per series and window: GET /v1/status's `history`. */
export const StatusHistory = z.strictObject({
  sampleIntervalSeconds: z.int().positive(),
  /** A window is measured once it holds this share of the samples it can hold (see docs/discovery.md). */
  minimumCoverage: z.number(),
  /** When the oldest sample still recorded was taken (to the hour beyond 24 h); null before the first. */
  samplingSince: z.iso.datetime().nullable(),
  series: z.array(
    z.strictObject({
      series: z.enum(["legacyCore", "gateway", "x402", "marketplace"]),
      description: z.string(),
      /** The state of the series' newest sample in the last 24 h (NOT_CONFIGURED: never counted); null without one. */
      latestState: z.enum(["UP", "DOWN", "NOT_CONFIGURED"]).nullable(),
      windows: z.array(WindowAvailability),
    }),
  ),
});
export type StatusHistory = z.infer<typeof StatusHistory>;
