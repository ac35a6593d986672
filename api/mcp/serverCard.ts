import { z } from "zod";
import { bazaarListingUrl, plans } from "../routes/catalogue";
import { mcpToolBazaar } from "../x402/bazaar/mcpToolBazaar";
import { mcpServerInfo, mcpToolAnnotations } from "./createMcpServerFactory";
import type { McpTool } from "./McpTool";
import { mcpEndpoints, mcpServerDescription } from "./mcpEndpoints";

/**
 * The MCP server card of `origin` (GET /.well-known/mcp/server-card.json): what an agent or a registry
 * needs to use the tools without connecting, built from the same tool definitions the server registers.
 */
export function serverCard(tools: readonly McpTool[], origin: string) {
  return {
    serverInfo: mcpServerInfo,
    description: mcpServerDescription,
    transports: mcpEndpoints(origin),
    authentication: {
      required: false,
      description:
        'Connecting needs no credential. Paid tools take an API key in a request header, or an x402 v2 payment per call (in _meta["x402/payment"] or a PAYMENT-SIGNATURE header); without either they return the x402 payment requirements as a tool error, or as a payment_required result to a 2026-07-28 client advertising org.x402/payment.',
      headers: [
        { name: "x-api-key", value: "<API_KEY>" },
        { name: "Authorization", value: "Bearer <API_KEY>" },
        { name: "PAYMENT-SIGNATURE", value: "<base64 x402 v2 PaymentPayload>" },
      ],
      plans: `${origin}${plans.path}`,
      /** The payable routes as x402 discovery resources (bazaar), listed by us as facilitators would. */
      x402Discovery: bazaarListingUrl(origin),
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
              x402Discovery: mcpToolBazaar(tool.route, { name: tool.name, description: tool.description, inputSchema }),
            }
          : {}),
      };
    }),
  };
}
