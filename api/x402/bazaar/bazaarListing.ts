import type { DiscoveryResource } from "@x402/extensions/bazaar";
import type { X402Service } from "../createX402Service";
import type { PaidRoute } from "../PaidRoute";
import { routeTemplate } from "./bazaarDeclaration";

/** The listing: x402 bazaar resources as a facilitator's `/discovery/resources` answers them, and the key that signs offers and receipts. */
export type BazaarListing = {
  x402Version: 2;
  items: (DiscoveryResource & { method: string; routeTemplate: string; outputSchema?: unknown })[];
  pagination: { limit: number; offset: number; total: number };
  signer: { address: string; kid: string } | null;
};

/**
 * Every payable route as a discovery resource, built from the route list and the same requirements
 * and declarations its 402 challenge carries: a facilitator's index cannot be relied on to list us.
 * Routes whose requirements cannot be built now (the facilitator is down) are left out.
 */
export async function bazaarListing(
  x402: Pick<X402Service, "offerOf" | "signer"> | null,
  routes: readonly (PaidRoute & { outputSchema?: unknown })[],
  origin: string,
  now: () => Date = () => new Date(),
): Promise<BazaarListing> {
  const items: BazaarListing["items"] = [];
  for (const route of x402 ? routes : []) {
    const offer = await x402?.offerOf(route);
    if (!offer?.ok) continue;
    items.push({
      resource: `${origin}${routeTemplate(route)}`,
      type: "http",
      x402Version: 2,
      method: route.method.toUpperCase(),
      routeTemplate: routeTemplate(route),
      accepts: offer.value.accepts,
      lastUpdated: now().toISOString(),
      description: route.summary,
      mimeType: "application/json",
      extensions: offer.value.extensions,
      ...(route.outputSchema ? { outputSchema: route.outputSchema } : {}),
    });
  }
  return { x402Version: 2, items, pagination: { limit: items.length, offset: 0, total: items.length }, signer: x402?.signer ?? null };
}
