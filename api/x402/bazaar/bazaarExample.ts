import type { FrozenCapture } from "../../samples/sampleCatalogue";

/** What x402 discovery shows of a payable route: the path parameters of an example call, and its answer abridged. */
export type BazaarExample = { pathParams?: Record<string, string>; output: unknown };

/** How deep the abridged answer keeps objects and lists, and the longest text it keeps. */
const maxDepth = 2;
const maxTextLength = 80;

/**
 * The discovery example of `route` from the frozen capture of a real call of it (samples/): its path
 * parameters, and its answer abridged to stay small in the x402 headers that carry it: every list cut
 * to its first entry, objects below the second level and long texts (evidence, disclaimers) left out.
 * The full answer's schema is in the OpenAPI document and the discovery listing. A capture of another
 * route's call stops the process at start.
 */
export function bazaarExample(route: { name: string; method: string; path: string }, capture: FrozenCapture): BazaarExample {
  const names = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string);
  const template = route.path.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{\w+\}/g, "([^/?]+)");
  const match = new RegExp(`^${route.method.toUpperCase()} ${template}$`).exec(capture.paidRoute);
  if (!match) throw new Error(`the capture of ${capture.paidRoute} is not a call of ${route.name}`);
  const pathParams = Object.fromEntries(names.map((name, i) => [name, decodeURIComponent(match[i + 1] as string)]));
  return { ...(names.length > 0 ? { pathParams } : {}), output: abridge(capture.response, 0) };
}

/** Whether the abridged answer keeps `value` at `depth`: objects and lists above the last level, short texts. */
function keeps(value: unknown, depth: number): boolean {
  return value !== null && typeof value === "object" ? depth < maxDepth : typeof value !== "string" || value.length <= maxTextLength;
}

function abridge(value: unknown, depth: number): unknown {
  if (Array.isArray(value)) return value.length > 0 && keeps(value[0], depth) ? [abridge(value[0], depth + 1)] : [];
  if (value === null || typeof value !== "object") return value;
  const kept = Object.entries(value).filter(([, v]) => keeps(v, depth));
  return Object.fromEntries(kept.map(([name, v]) => [name, abridge(v, depth + 1)]));
}

/**
 * The example a payable route carries (`payableRoute` makes it from the route's capture). x402's
 * `PaidRoute` does not name the field, so a route built otherwise is refused here, loudly.
 */
export function exampleOf(route: { name: string }): BazaarExample {
  const { example } = route as { example?: BazaarExample };
  if (!example) throw new Error(`${route.name} carries no x402 discovery example (define it with payableRoute)`);
  return example;
}
