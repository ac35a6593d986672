import type { Principal } from "../access/AccessControlParameters";
import type { ProductEvent } from "../events/ProductEvent";

/** How a counted answer was paid for: an API key's credits, an x402 payment, the gateway, or nothing (the demo). */
export type ServedVia = "API_KEY" | "X402" | "GATEWAY" | "FREE";

const viaOf: Record<Principal["kind"], ServedVia> = { apiKey: "API_KEY", x402: "X402", gateway: "GATEWAY" };

/**
 * The counter of a route's 2xx answers by how they were paid (`SERVED GET /v1/audit/{address} VIA X402`):
 * the route's template, never its parameters. An x402 answer is only sent once its payment settled, so
 * the X402 counters are the settlements by route.
 */
export function servedCounter(routeName: string, principal: Principal | undefined): string {
  return `SERVED ${routeName} VIA ${principal ? viaOf[principal.kind] : "FREE"}`;
}

/** The counter of a product event: its name and enum dimensions (`EVENT ctaClicked home getFreeKey`). */
export function eventCounter(event: ProductEvent): string {
  return event.event === "pageViewed" ? `EVENT pageViewed ${event.page}` : `EVENT ctaClicked ${event.page} ${event.cta}`;
}
