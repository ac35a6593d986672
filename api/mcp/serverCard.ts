import { SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/server";
import { z } from "zod";
import { routes } from "../routes/routeTable";
import { discoveryListingUrl } from "../x402/discovery/discoveryListing";
import { mcpToolDiscovery } from "../x402/discovery/mcpToolDiscovery";
import { mcpServerInfo, mcpToolAnnotations } from "./createMcpServerFactory";
import type { McpTool } from "./mcpTools";

/** The 2026-era revision the v2 server packages negotiate (they do not export their list of it). */
export const modernProtocolVersions = ["2026-07-28"] as const;

/**
 * The MCP server card of `origin` (GET /.well-known/mcp/server-card.json): what an agent or a registry
 * needs to use the tools without connecting, built from the same tool definitions the server registers.
 */
export function serverCard(tools: readonly McpTool[], origin: string) {
  const streamable = [...modernProtocolVersions, ...SUPPORTED_PROTOCOL_VERSIONS.filter((v) => v >= "2025-03-26")];
  return {
    serverInfo: mcpServerInfo,
    description:
      "Static bytecode capability observations of Base contracts and sourced Base market data (gas, token prices, DEX liquidity, whale transfers).",
    transports: [
      { type: "streamable-http", url: `${origin}${routes.mcp.path}`, protocolVersions: streamable },
      {
        type: "sse",
        url: `${origin}${routes.mcpSse.path}`,
        messagesUrl: `${origin}${routes.mcpMessages.path}`,
        protocolVersions: ["2024-11-05"],
      },
    ],
    authentication: {
      required: false,
      description:
        "Connecting needs no credential. Paid tools take an API key in a request header, or an x402 v2 payment per call; without either they return the x402 payment requirements as a tool error.",
      headers: [
        { name: "x-api-key", value: "<API_KEY>" },
        { name: "Authorization", value: "Bearer <API_KEY>" },
        { name: "PAYMENT-SIGNATURE", value: "<base64 x402 v2 PaymentPayload>" },
      ],
      plans: `${origin}${routes.plans.path}`,
      /** The payable routes as x402 discovery resources (bazaar), listed by us as facilitators would. */
      x402Discovery: discoveryListingUrl(origin),
    },
    tools: tools.map((tool) => {
      const inputSchema = z.toJSONSchema(tool.input, { io: "input" }) as Record<string, unknown>;
      return {
        name: tool.name,
        title: tool.title,
        description: tool.description,
        inputSchema,
        annotations: mcpToolAnnotations,
        ...(tool.route.x402PriceUsd !== undefined
          ? {
              price: { credits: tool.route.credits, x402Usd: tool.route.x402PriceUsd },
              // x402's tool form of the bazaar declaration: registries list the tool as they list its route.
              x402Discovery: mcpToolDiscovery(tool.route, { name: tool.name, description: tool.description, inputSchema }),
            }
          : {}),
      };
    }),
  };
}
