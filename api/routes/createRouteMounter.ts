import type { OpenAPIHono, RouteConfig } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import type { AccessEnv } from "../access/AccessControlParameters";
import { chargeCredits } from "../access/chargeCredits";
import type { AccessParameters } from "../access/createAccessServices";
import { limitIntentsPerClient } from "../access/limitIntentsPerClient";
import { publicLimit } from "../access/publicLimit";
import { requireApiKey } from "../access/requireApiKey";
import { requireOperatorBootstrap } from "../access/requireOperatorBootstrap";
import { requirePayment } from "../access/requirePayment";
import { jsonBody } from "../http/jsonBody";
import { type ParameterSchemas, validateParameters } from "../http/validateParameters";
import { servedCounter } from "../stats/counterNames";
import type { UsageCounters } from "../stats/createUsageCounters";
import { awaitStore } from "../store/isStoreUnavailable";
import type { X402Service } from "../x402/createX402Service";
import { plans } from "./catalogue";
import { defaultMaxBodyBytes, type RouteDefinition } from "./defineRoute";
import type { AccessChain, MountRoute } from "./MountRoute";
import type { RouteParameters } from "./RouteParameters";
import type { ServedRoute } from "./servedRoute";

/**
 * The middleware of a route, in this order: the served counter (it sees the final status, after any
 * x402 settlement), the access policy (credential, rate limit; on a payable route with an x402 price
 * and `x402` configured, else per-call payment), the hourly intent budget, the credit meter, the app
 * store's readiness, the JSON body. The REST routes and the MCP tools that serve them run the same chain.
 */
export function createAccessChain(access: AccessParameters, x402: X402Service | null, counters: UsageCounters): AccessChain {
  const limitPerClient = publicLimit(access);
  const limitMcpPerClient = publicLimit({ ...access, scope: "MCP" });
  const intentsPerClient = limitIntentsPerClient({ ...access, perHour: access.maxIntentsPerClientPerHour });
  const storeReady: MiddlewareHandler = async function storeReady(_c, next) {
    await awaitStore(access.storeReady);
    await next();
  };
  const paid = requirePayment({ ...access, plansUrl: plans.path, x402 });
  const policies = {
    public: (route) => [route.rateLimited === "MCP" ? limitMcpPerClient : limitPerClient],
    apiKey: () => [requireApiKey({ ...access, allowExpired: true })],
    apiKeyOrX402: (route) => [paid({ ...route, access: "apiKeyOrX402" })],
    apiKeyOrGateway: (route) => [paid({ ...route, access: "apiKeyOrGateway" })],
    operator: () => [requireOperatorBootstrap({ ...access, token: access.operatorBootstrapToken })],
  } satisfies Record<RouteDefinition["access"], (route: RouteDefinition) => MiddlewareHandler<AccessEnv>[]>;

  const countServed = (route: RouteDefinition): MiddlewareHandler<AccessEnv> =>
    async function countServed(c, next) {
      await next();
      if (c.res.status >= 200 && c.res.status < 300) counters.add(servedCounter(route.name, c.get("principal")));
    };

  return (route) => [
    ...(route.counted ? [countServed(route)] : []),
    ...(route.access === "public" && route.rateLimited === false ? [] : policies[route.access](route)),
    ...(route.createsIntent ? [intentsPerClient] : []),
    ...(route.credits ? [chargeCredits({ ...access, cost: route.credits })] : []),
    ...(route.appStore ? [storeReady] : []),
    ...(route.request?.body ? [jsonBody({ maxBytes: route.maxBodyBytes ?? defaultMaxBodyBytes })] : []),
  ];
}

/**
 * Mounts routes on `app` behind the middleware their definitions ask for (`createAccessChain`); the
 * route's own schemas validate params and query (`validateParameters`), then the body (zod-openapi's
 * validator), before its handler runs. The OpenAPI document lists each route as defined.
 */
export function createRouteMounter(app: OpenAPIHono<AccessEnv>, accessChain: AccessChain): MountRoute {
  return (route, handler) => {
    const { hide, ...documented } = route.openapi;
    const { params, query, ...validatedByZodOpenApi }: ParameterSchemas & RouteConfig["request"] = documented.request;
    if (!hide) app.openAPIRegistry.registerPath(documented);
    const parameters = params || query ? [validateParameters({ params, query })] : [];
    // Mounted without its path and query schemas (validateParameters checks those), so hidden: the document has it whole from above.
    app.openapi(
      { ...documented, request: validatedByZodOpenApi, hide: true, middleware: [...accessChain(route), ...parameters] },
      handler as never,
    );
  };
}

/** Mounts the routes whose modules carry their handlers, each made from the app's dependencies. */
export function mountServedRoutes(mount: MountRoute, routes: readonly ServedRoute[], deps: RouteParameters): void {
  // `servedRoute` and `payableRoute` typed each handler against its own route; the list keeps only that it has one.
  for (const route of routes) mount(route, route.handler(deps) as never);
}
