import { OpenAPIHono } from "@hono/zod-openapi";
import type { AccessEnv } from "./access/AccessControlParameters";
import type { AccessParameters, KeyRouteParameters } from "./access/createAccessServices";
import { rejectQueryCredentials } from "./access/rejectQueryCredentials";
import type { CheckStatusParameters } from "./health/checkStatus";
import { answerHeaders } from "./http/answer";
import { corsHeaders } from "./http/corsHeaders";
import { handleError, methodNotAllowedOrNotFound } from "./http/errorHandling";
import { validationHook } from "./http/validationHook";
import { mcpTools } from "./mcp/mcpTools";
import { type McpParameters, mountMcpRoutes } from "./mcp/mountMcpRoutes";
import { mountCatalogueRoutes } from "./routes/catalogue";
import { createAccessChain, createRouteMounter, mountServedRoutes } from "./routes/createRouteMounter";
import { type DiscoveryParameters, mountDiscoveryRoutes } from "./routes/discovery";
import type { CapabilityRouteParameters, MarketRouteParameters, RouteParameters } from "./routes/RouteParameters";
import { routeList, servedRoutes } from "./routes/routeList";
import { mountSiteRoutes } from "./routes/site";
import { createStatusCheck } from "./routes/status";
import type { X402Service } from "./x402/createX402Service";

/** What the API is built from: every dependency is passed in, so tests hand it real ones. */
export type AppParameters = {
  status: CheckStatusParameters;
  /** Live contract analysis: the Base providers and the demo's published samples. */
  capability: CapabilityRouteParameters;
  /** API keys, credits, rate limits, gateway, the operator's token: what the access middleware reads. */
  access: AccessParameters;
  /** Free keys, purchases and recovery: the key routes' services. */
  keyRoutes: KeyRouteParameters;
  /** Market data: gas read live from the Base providers, the rest from the index (one reading per indexed block). */
  market: MarketRouteParameters;
  /** Per-call x402 payment of the payable routes; null: not offered (no payout address or facilitator). */
  x402: X402Service | null;
  /** The MCP endpoints' allowed origins and stream bound; default: the service's own origins, 1,000 streams. */
  mcp?: McpParameters;
  /** Usage counters and stats, product events, the status history's sampling. */
  discovery: DiscoveryParameters;
};

/**
 * The whole HTTP API: middleware order, the route list's routes, and the one error shape. Our own
 * listener serves it on the public port (api/listener/); tests drive it with `app.request()`.
 */
export function createApp(deps: AppParameters) {
  const app = new OpenAPIHono<AccessEnv>({ defaultHook: validationHook });
  // Outermost: any answer not built by `answer` still gets the headers the middleware added.
  app.use(answerHeaders());
  app.use(
    corsHeaders({
      allowHeaders: [
        "content-type",
        "authorization",
        "x-api-key",
        "payment-signature",
        "x-gateway-key",
        "mcp-protocol-version",
        "mcp-method",
        "mcp-name",
      ],
      exposeHeaders: [
        "payment-required",
        "payment-response",
        "x-credits-remaining",
        "x-ratelimit-remaining",
        "retry-after",
        "x-service-rpc-provider",
        "x-service-trust-level",
      ],
    }),
  );

  // Before any route: a credential in the URL never reaches a handler.
  app.use(rejectQueryCredentials());
  const accessChain = createAccessChain(deps.access, deps.x402, deps.discovery.counters);
  const mount = createRouteMounter(app, accessChain);
  const checkStatus = createStatusCheck(deps.status, deps.discovery);
  const routeParameters: RouteParameters = {
    capability: deps.capability,
    market: deps.market,
    checkStatus,
    access: deps.access,
    keyRoutes: deps.keyRoutes,
    clientBucket: deps.access.clientBucket,
    indexDb: deps.status.indexDb,
  };
  mountServedRoutes(mount, servedRoutes, routeParameters);
  mountDiscoveryRoutes(mount, deps.discovery, deps.access, routeList);
  const { origins } = deps.access;
  mountMcpRoutes(mount, {
    tools: mcpTools(servedRoutes, routeParameters),
    accessChain,
    origins,
    clientBucket: deps.access.clientBucket,
    options: deps.mcp ?? { allowedOrigins: [origins.public, ...(origins.fallback ? [origins.fallback] : [])], maxStreams: 1000 },
  });
  mountSiteRoutes(mount, { origins, samples: deps.capability.samples });
  mountCatalogueRoutes(mount, app, routeList, { ...deps.keyRoutes, x402: deps.x402 });
  app.all("*", methodNotAllowedOrNotFound(app));
  app.onError((err, c) => handleError(err, c));
  return app;
}
