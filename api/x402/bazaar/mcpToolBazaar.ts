import { declareDiscoveryExtension } from "@x402/extensions/bazaar";
import type { PaidRoute } from "../PaidRoute";
import { exampleOf } from "./bazaarExample";

/** The MCP tool a payable route is served as: its name, what it does, and its input's JSON Schema. */
export type PaidTool = { name: string; description: string; inputSchema: Record<string, unknown> };

/**
 * The bazaar discovery declaration of a payable MCP tool (x402's tool form): its name, description,
 * input schema, and the route's captured example as input and output. For the MCP server's payment
 * requirements (`extensions.bazaar`), so registries list the tool as they list the route.
 */
export function mcpToolBazaar(route: Pick<PaidRoute, "name">, tool: PaidTool): Record<string, unknown> {
  const example = exampleOf(route);
  return declareDiscoveryExtension({
    toolName: tool.name,
    description: tool.description,
    transport: "streamable-http",
    inputSchema: tool.inputSchema,
    ...(example.pathParams ? { example: example.pathParams } : {}),
    output: { example: example.output },
  });
}
