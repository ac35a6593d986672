import { baseNetwork } from "../../base/baseChain";
import { failure, type Result, success } from "../errors";
import type { SampleEnvelope, SampleIndex } from "./SampleEnvelope";
import { readFrozenCapture, sampleRoutes } from "./sampleCatalogue";
import { type SampleName, sampleNames } from "./sampleNames";

const frozenNote = "Frozen: captured once from the devnet, not current. Call the paid route for a live answer.";

/** Every sample's envelope, built once from the committed captures and the route table's prices. */
export function buildSamples(): { index(origin: string): SampleIndex; sample(name: string): Result<SampleEnvelope> } {
  const envelopes = new Map<string, SampleEnvelope>(
    sampleNames.map((name) => {
      const capture = readFrozenCapture(name);
      const route = sampleRoutes[name];
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
