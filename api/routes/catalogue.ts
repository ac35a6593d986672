import type { OpenAPIHono } from "@hono/zod-openapi";
import { z } from "zod";
import { baseUsdc } from "../../base/baseChain";
import type { AccessEnv } from "../access/AccessOptions";
import type { ServiceOrigins } from "../config";
import { requestOrigin } from "../http/requestOrigin";
import { buildPlans } from "../keys/buildPlans";
import type { TierRates } from "../keys/toIssuedKey";
import { openApiDocument } from "../openapi/openApiDocument";
import type { X402Service } from "../x402/createX402Service";
import { discoveryListing } from "../x402/discovery/discoveryListing";
import type { PaidRoute } from "../x402/PaidRoute";
import type { MountRoute } from "./createRouteMounter";
import { routeList, routes } from "./routeTable";

/** The payable routes of the table, with their answers' JSON Schema (for the discovery listing). */
function paidRoutes(): (PaidRoute & { outputSchema?: unknown })[] {
  return routeList.flatMap((route) => {
    if (route.access !== "apiKeyOrX402" || route.x402PriceUsd === undefined) return [];
    const schema = route.responses[200]?.schema;
    const outputSchema = schema ? z.toJSONSchema(schema, { io: "output", unrepresentable: "any" }) : undefined;
    return [{ ...route, x402PriceUsd: route.x402PriceUsd, outputSchema }];
  });
}

/**
 * The plan catalogue, the x402 discovery listing and the OpenAPI document, all derived from the route table. Mount these last:
 * the document describes the routes mounted before it (built once, on first request).
 */
export function mountCatalogueRoutes(
  mount: MountRoute,
  app: OpenAPIHono<AccessEnv>,
  deps: { payTo: `0x${string}` | null; origins: ServiceOrigins; x402: X402Service | null; rates: TierRates },
) {
  const plans = buildPlans({
    payTo: deps.payTo,
    usdc: baseUsdc,
    routes: routeList,
    x402Accepted: deps.x402 !== null,
    rates: deps.rates,
  });
  mount(routes.plans, (c) => c.json(plans));
  let payable: ReturnType<typeof paidRoutes> | undefined;
  mount(routes.x402Discovery, async (c) => {
    payable ??= paidRoutes();
    return c.json(await discoveryListing(deps.x402, payable, requestOrigin(c, deps.origins)));
  });
  let document: ReturnType<typeof openApiDocument> | undefined;
  for (const route of [routes.openApi, routes.openApiRoot]) {
    mount(route, (c) => {
      document ??= openApiDocument(app, deps.origins);
      return c.json(document);
    });
  }
}
