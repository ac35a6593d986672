import type { RouteHandler } from "@hono/zod-openapi";
import type { AccessEnv } from "../access/AccessControlParameters";
import type { RouteTool } from "../mcp/McpTool";
import { readFrozenCapture } from "../samples/sampleCatalogue";
import type { CaptureName } from "../samples/sampleNames";
import { type BazaarExample, bazaarExample } from "../x402/bazaar/bazaarExample";
import type { AccessPolicy, RouteDefinition } from "./defineRoute";
import type { RouteParameters } from "./RouteParameters";

/** How a route answers, made from the app's dependencies. */
type HandlerOf<R extends RouteDefinition> = (deps: RouteParameters) => RouteHandler<R["openapi"], AccessEnv>;

/** What a route module adds to its definition: its handler, its MCP tool, the frozen capture of its answer. */
type ServedParts<R extends RouteDefinition> = {
  handler: HandlerOf<R>;
  /** Served over MCP as this tool too (null: a payable route the spec gives no tool). */
  tool?: RouteTool | null;
  /** Its answer captured under samples/ (published by GET /v1/sample when the name is one of `sampleNames`). */
  capture?: CaptureName;
};

/** A route with its handler: what the app mounts and the MCP server calls, whatever the route's own types. */
export type ServedRoute = RouteDefinition & {
  handler: (deps: RouteParameters) => unknown;
  tool?: RouteTool | null;
  capture?: CaptureName;
};

/** A payable route: its MCP tool (null where the spec gives it none), its capture, and the x402 discovery example made from it. */
export type PayableRoute = ServedRoute & {
  access: "apiKeyOrX402";
  x402PriceUsd: number;
  tool: RouteTool | null;
  capture: CaptureName;
  example: BazaarExample;
};

/** A route that is not payable, with its handler (and its tool and capture where it has them). */
export function servedRoute<R extends RouteDefinition & { access: Exclude<AccessPolicy, "apiKeyOrX402"> }>(
  route: R,
  parts: ServedParts<R>,
): R & ServedParts<R> {
  return { ...route, ...parts };
}

/**
 * A payable route: it must name its tool and its capture, and its discovery example is made from that
 * capture now, so a missing or unreadable one stops the process at start.
 */
export function payableRoute<R extends RouteDefinition & { access: "apiKeyOrX402"; x402PriceUsd: number }>(
  route: R,
  parts: Required<ServedParts<R>>,
): R & Required<ServedParts<R>> & PayableRoute {
  return { ...route, ...parts, example: bazaarExample(route, readFrozenCapture(parts.capture)) };
}
