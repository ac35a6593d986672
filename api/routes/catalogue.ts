import type { OpenAPIHono } from "@hono/zod-openapi";
import { z } from "zod";
import { baseUsdc } from "../../base/baseChain";
import type { AccessEnv } from "../access/AccessControlParameters";
import type { ServiceOrigins } from "../config";
import { answerJson } from "../http/jsonAnswer";
import { requestOrigin } from "../http/requestOrigin";
import { buildPlans } from "../keys/buildPlans";
import { Plans } from "../keys/records";
import type { TierRates } from "../keys/toIssuedKey";
import { openApiDocument } from "../openapi/openApiDocument";
import { BazaarListingSchema } from "../x402/bazaar/BazaarListingSchema";
import { bazaarListing } from "../x402/bazaar/bazaarListing";
import type { X402Service } from "../x402/createX402Service";
import type { PaidRoute } from "../x402/PaidRoute";
import { defineRoute, type RouteDefinition } from "./defineRoute";
import type { MountRoute } from "./MountRoute";

export const openApi = defineRoute({
  group: "Discovery",
  method: "get",
  path: "/v1/openapi.json",
  summary: "This document: OpenAPI 3.1.0 of API version 2.2.0",
  access: "public",
  rateLimited: false,
  responses: { 200: { description: "The OpenAPI document" } },
  errors: ["CREDENTIAL_IN_QUERY"],
});

export const openApiRoot = defineRoute({
  group: "Discovery",
  method: "get",
  path: "/openapi.json",
  summary: "The OpenAPI document at the conventional root path",
  access: "public",
  rateLimited: false,
  hidden: true,
  responses: { 200: { description: "The OpenAPI document" } },
  errors: ["CREDENTIAL_IN_QUERY"],
});

export const x402Discovery = defineRoute({
  group: "Discovery",
  method: "get",
  path: "/v1/x402/discovery",
  summary: "The payable routes as x402 discovery resources (bazaar): price, requirements, input schema, output example and schema",
  description:
    "The same requirements and extension declarations every 402 challenge carries, listed as a facilitator's discovery index lists resources, with the address and key id that sign offers and receipts.",
  access: "public",
  responses: { 200: { description: "BazaarListing", schema: BazaarListingSchema } },
  errors: ["CREDENTIAL_IN_QUERY", "RATE_LIMITED"],
});

export const plans = defineRoute({
  group: "Keys and payments",
  method: "get",
  path: "/v1/plans",
  summary: "The authoritative plan and price catalogue",
  access: "public",
  responses: { 200: { description: "Plans", schema: Plans, headers: ["X-RateLimit-Remaining"] } },
  errors: ["CREDENTIAL_IN_QUERY", "RATE_LIMITED"],
});

/** The discovery listing's URL at `origin`: the link the OpenAPI document and the MCP server card carry. */
export function bazaarListingUrl(origin: string): string {
  return `${origin}${x402Discovery.path}`;
}

/** The payable routes of the list, with their answers' JSON Schema (for the discovery listing). */
function paidRoutes(routes: readonly RouteDefinition[]): (PaidRoute & { outputSchema?: unknown })[] {
  return routes.flatMap((route) => {
    if (route.access !== "apiKeyOrX402" || route.x402PriceUsd === undefined) return [];
    const schema = route.responses[200]?.schema;
    const outputSchema = schema ? z.toJSONSchema(schema, { io: "output", unrepresentable: "any" }) : undefined;
    return [{ ...route, x402PriceUsd: route.x402PriceUsd, outputSchema }];
  });
}

/**
 * The plan catalogue, the x402 discovery listing and the OpenAPI document, all derived from the route list. Mount these last:
 * the document describes the routes mounted before it (built once, on first request).
 */
export function mountCatalogueRoutes(
  mount: MountRoute,
  app: OpenAPIHono<AccessEnv>,
  routes: readonly RouteDefinition[],
  deps: { payTo: `0x${string}` | null; origins: ServiceOrigins; x402: X402Service | null; rates: TierRates },
) {
  const catalogue = buildPlans({ payTo: deps.payTo, usdc: baseUsdc, routes, x402Accepted: deps.x402 !== null, rates: deps.rates });
  mount(plans, (c) => answerJson(c, catalogue, { shared: true }));
  let payable: ReturnType<typeof paidRoutes> | undefined;
  mount(x402Discovery, async (c) => {
    payable ??= paidRoutes(routes);
    return answerJson(c, await bazaarListing(deps.x402, payable, requestOrigin(c, deps.origins)));
  });
  let document: ReturnType<typeof openApiDocument> | undefined;
  for (const route of [openApi, openApiRoot]) {
    mount(route, (c) => {
      document ??= openApiDocument(app, deps.origins, bazaarListingUrl(deps.origins.public));
      return answerJson(c, document, { shared: true });
    });
  }
}
