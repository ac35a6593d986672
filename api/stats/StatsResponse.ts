import { z } from "zod";

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

/** PublicStats: which counters saw any activity in the window, never how much. */
export const PublicStats = z
  .strictObject({
    view: z.literal("PUBLIC"),
    days: z.int().min(1).max(400),
    from: day,
    to: day,
    /** Each counter with any count in the window; no figure. */
    activeCounters: z.array(z.string()),
    note: z.string(),
  })
  .meta({ id: "PublicStats" });
export type PublicStats = z.infer<typeof PublicStats>;

/** AggregateStats (operator view): exact identifier-free daily counters of one bucket. */
export const AggregateStats = z
  .strictObject({
    view: z.literal("OPERATOR"),
    bucket: z.enum(["production", "test"]),
    days: z.int().min(1).max(400),
    from: day,
    to: day,
    totals: z.record(z.string(), z.int().nonnegative()),
    daily: z.array(z.strictObject({ day, counts: z.record(z.string(), z.int().nonnegative()) })),
  })
  .meta({ id: "AggregateStats" });
export type AggregateStats = z.infer<typeof AggregateStats>;

/** `days` of GET /v1/stats: an integer 1..400 written in decimal, default 30. */
export const StatsQuery = z.object({
  days: z
    .string()
    .regex(/^[1-9]\d{0,2}$/, "days is an integer from 1 to 400")
    .transform(Number)
    .pipe(z.int().max(400, "days is an integer from 1 to 400"))
    .optional()
    .meta({ description: "Days back from today (UTC), 1..400, default 30" }),
  bucket: z
    .enum(["production", "test"])
    .optional()
    .meta({ description: "Operator view only (401 without operator authorization); default production" }),
});
