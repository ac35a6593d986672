import type { OpenAPIHono } from "@hono/zod-openapi";
import { baseUsdc } from "../../base/baseChain";
import type { AccessEnv } from "../access/AccessOptions";
import type { ServiceOrigins } from "../config";
import { buildPlans } from "../keys/buildPlans";
import type { TierRates } from "../keys/toIssuedKey";
import { openApiDocument } from "../openapi/openApiDocument";
import type { MountRoute } from "./createRouteMounter";
import { routeList, routes } from "./routeTable";

/**
 * The plan catalogue and the OpenAPI document, both derived from the route table. Mount these last:
 * the document describes the routes mounted before it (built once, on first request).
 */
export function mountCatalogueRoutes(
  mount: MountRoute,
  app: OpenAPIHono<AccessEnv>,
  deps: { payTo: `0x${string}` | null; origins: ServiceOrigins; x402Accepted: boolean; rates: TierRates },
) {
  const plans = buildPlans({
    payTo: deps.payTo,
    usdc: baseUsdc,
    routes: routeList,
    x402Accepted: deps.x402Accepted,
    rates: deps.rates,
  });
  mount(routes.plans, (c) => c.json(plans));
  let document: ReturnType<typeof openApiDocument> | undefined;
  for (const route of [routes.openApi, routes.openApiRoot]) {
    mount(route, (c) => {
      document ??= openApiDocument(app, deps.origins);
      return c.json(document);
    });
  }
}
