import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import type { CaptureName } from "./sampleNames";

/** A frozen capture as committed under samples/: when, the call made, and its answer. */
export const FrozenCapture = z.strictObject({
  capturedAt: z.iso.datetime(),
  paidRoute: z.string(),
  request: z.unknown().optional(),
  response: z.record(z.string(), z.unknown()),
});
export type FrozenCapture = z.infer<typeof FrozenCapture>;

export const frozenDirectory = fileURLToPath(new URL("../../samples", import.meta.url));

/**
 * Reads the committed capture of `name` (a real answer, captured from the devnet by
 * scripts/captureSamples.ts); a missing or malformed file stops the process at start.
 */
export function readFrozenCapture(name: CaptureName): FrozenCapture {
  return FrozenCapture.parse(JSON.parse(readFileSync(`${frozenDirectory}/${name}.json`, "utf8")));
}
