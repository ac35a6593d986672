import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import type { RouteDefinition } from "../routes/defineRoute";
import { routes } from "../routes/routeTable";
import type { SampleName } from "./sampleNames";

/**
 * Which route each frozen sample (a real answer, captured from the devnet by scripts/captureSamples.ts)
 * answers for: its schema checks the frozen answer, its price and access are the envelope's.
 */
export const sampleRoutes: Record<SampleName, RouteDefinition> = {
  "gas-fees": routes.gasFees,
  "dex-metrics": routes.dexMetrics,
  "token-price": routes.tokenPrice,
  "whale-signals": routes.whaleSignals,
  "transaction-preflight": routes.preflight,
};

/** A frozen capture as committed under samples/: when, the call made, and its answer. */
export const FrozenCapture = z.strictObject({
  capturedAt: z.iso.datetime(),
  paidRoute: z.string(),
  request: z.unknown().optional(),
  response: z.record(z.string(), z.unknown()),
});
export type FrozenCapture = z.infer<typeof FrozenCapture>;

export const frozenDirectory = fileURLToPath(new URL("../../samples", import.meta.url));

/** Reads the committed capture of `name` (a missing or malformed file stops the process at start). */
export function readFrozenCapture(name: SampleName): FrozenCapture {
  return FrozenCapture.parse(JSON.parse(readFileSync(`${frozenDirectory}/${name}.json`, "utf8")));
}
