import { baseNetwork } from "../../base/baseChain";
import { failure, type Result, success } from "../errors";
import type { RouteDefinition } from "../routes/defineRoute";
import type { SampleEnvelope, SampleIndex } from "./SampleEnvelope";
import { readFrozenCapture } from "./sampleCatalogue";
import { type CaptureName, type SampleName, sampleNames } from "./sampleNames";

const frozenNote = "Frozen: captured once from the devnet, not current. Call the paid route for a live answer.";

/** A route whose answer is captured under samples/ (its module names the capture). */
export type CapturedRoute = RouteDefinition & { capture?: CaptureName };

/** The route each published sample is the answer of: the one whose module names its capture (one per name, or the start stops). */
export function sampleRoutes(routes: readonly CapturedRoute[]): Record<SampleName, RouteDefinition> {
  return Object.fromEntries(
    sampleNames.map((name) => {
      const found = routes.filter((route) => route.capture === name);
      if (found.length !== 1) throw new Error(`the sample ${name} is the capture of ${found.length} routes, not one`);
      return [name, found[0] as RouteDefinition];
    }),
  ) as Record<SampleName, RouteDefinition>;
}

/** Every sample's envelope, built once from the committed captures and the prices of the routes that name them. */
export function buildSamples(routes: readonly CapturedRoute[]): {
  index(origin: string): SampleIndex;
  sample(name: string): Result<SampleEnvelope>;
} {
  const routeOf = sampleRoutes(routes);
  const envelopes = new Map<string, SampleEnvelope>(
    sampleNames.map((name) => {
      const capture = readFrozenCapture(name);
      const route = routeOf[name];
      const x402 = route.access === "apiKeyOrX402" && route.x402PriceUsd !== undefined;
      const envelope: SampleEnvelope = {
        status: "SAMPLE",
        sample: true,
        capturedAt: capture.capturedAt,
        paidRoute: capture.paidRoute,
        response: capture.response,
        note: frozenNote,
        priceUsd: x402 ? (route.x402PriceUsd ?? null) : null,
        currency: x402 ? "USDC" : null,
        network: baseNetwork,
        access: x402 ? "API_KEY_OR_X402" : "API_KEY_OR_GATEWAY_METERED_NOT_X402",
      };
      return [name, envelope];
    }),
  );
  return {
    index: (origin) => ({
      status: "OK",
      description: "Free frozen answers of the paid routes, one per route family: what a paid call returns, without paying.",
      samples: sampleNames.map((name) => ({ name, url: `${origin}/v1/sample?name=${name}` })),
      note: frozenNote,
    }),
    sample(name) {
      const envelope = envelopes.get(name as SampleName);
      if (!envelope) return failure("UNKNOWN_SAMPLE", `no sample named ${JSON.stringify(name.slice(0, 64))}`, { supported: sampleNames });
      return success(envelope);
    },
  };
}
