import { mcp, mcpMessages, mcpRegistryEntry, mcpServerCard, mcpSse, mcpStream } from "../mcp/mcpRoutes";
import { audit } from "./capability/audit";
import { demoAudit } from "./capability/demoAudit";
import { preflight } from "./capability/preflight";
import { score } from "./capability/score";
import { openApi, openApiRoot, plans, x402Discovery } from "./catalogue";
import type { RouteDefinition } from "./defineRoute";
import { events, sample, samples, stats } from "./discovery";
import { keyRevoke, keySelf, recoveryChallenge, recoveryClaim } from "./keys";
import { dexMetrics } from "./market/dexMetrics";
import { gasFees } from "./market/gasFees";
import { tokenPrice } from "./market/tokenPrice";
import { tokenSimulation } from "./market/tokenSimulation";
import { whaleSignals } from "./market/whaleSignals";
import { cryptoClaim, freeChallenge, freeClaim, purchaseIntent } from "./onboarding";
import { gatewayProxyDigest } from "./operator";
import { health, ready } from "./probes";
import type { ServedRoute } from "./servedRoute";
import { docs, docsAsset, site, siteAsset } from "./site";
import { status } from "./status";

/**
 * Every route of the API, each defined once in its module: a route that is not here does not exist.
 * The plans, the MCP tools, the samples and the x402 discovery listing are built from this list, in its
 * order (the tools' is the spec's); the app mounts the served routes, then each group's mount function
 * (the OpenAPI document follows that mount order).
 */
export const routes = {
  health,
  ready,
  openApi,
  openApiRoot,
  stats,
  events,
  samples,
  sample,
  site,
  siteAsset,
  docs,
  docsAsset,
  x402Discovery,
  plans,
  demoAudit,
  audit,
  score,
  gasFees,
  tokenPrice,
  dexMetrics,
  whaleSignals,
  tokenSimulation,
  status,
  preflight,
  freeChallenge,
  freeClaim,
  purchaseIntent,
  cryptoClaim,
  keySelf,
  keyRevoke,
  recoveryChallenge,
  recoveryClaim,
  mcp,
  mcpStream,
  mcpSse,
  mcpMessages,
  mcpServerCard,
  mcpRegistryEntry,
  gatewayProxyDigest,
} as const satisfies Record<string, RouteDefinition>;

/** The list, in its order. */
export const routeList: readonly RouteDefinition[] = Object.values(routes);

/** The routes whose module carries their handler (and their MCP tool and capture): mounted from this list. */
export const servedRoutes: readonly ServedRoute[] = routeList.filter((route): route is ServedRoute => "handler" in route);
