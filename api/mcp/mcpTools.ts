import type { RouteParameters } from "../routes/RouteParameters";
import type { ServedRoute } from "../routes/servedRoute";
import type { McpTool } from "./McpTool";

/** A route's path with its `{name}` parameters filled in from a tool's input. */
const pathOf = (route: ServedRoute, input: unknown) =>
  route.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String((input as Record<string, unknown>)[name] ?? "")));

/** What a payable tool costs, as its description tells an agent. */
const priceOf = (route: ServedRoute) =>
  route.access === "apiKeyOrX402"
    ? ` Costs ${route.credits} credit${route.credits === 1 ? "" : "s"} with an API key (x-api-key or Authorization: Bearer header), or ${route.x402PriceUsd} USDC on Base per call with an x402 v2 payment (in _meta["x402/payment"] or a PAYMENT-SIGNATURE header); without either it returns the x402 payment requirements.`
    : "";

/**
 * The MCP tools of the routes that declare one, in the routes' order: each over its route's own service
 * with the same dependencies, its description closed by the REST call it answers as and its price.
 */
export function mcpTools(routes: readonly ServedRoute[], deps: RouteParameters): McpTool[] {
  return routes.flatMap((route) => {
    if (!route.tool) return [];
    const { serve, ...tool } = route.tool;
    const description = `${tool.description} Same answer as ${route.method.toUpperCase()} ${route.path}.${priceOf(route)}`;
    return [{ ...tool, description, route, path: (input) => pathOf(route, input), serve: serve(deps) as McpTool["serve"] }];
  });
}
