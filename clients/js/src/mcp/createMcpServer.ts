import { type CallToolResult, fromJsonSchema, type JsonSchemaType, McpServer } from "@modelcontextprotocol/server";
import type { Client } from "../createClient.js";
import { PaymentRequiredError, ServiceError } from "../errors.js";
import { callTool } from "../tools/callTool.js";
import { toolAnnotations, toolDefinitions } from "../tools/toolDefinitions.js";
import { clientVersion } from "../version.js";

export type McpServerParameters = {
  /** Calls the service: with its API key, or paying when `pay` is set (the client then needs its payment option). */
  client: Client;
  /** Pay each payable call with x402 within the client's caps. */
  pay: boolean;
};

/**
 * A local MCP server with the service's tools (the same names, descriptions and input schemas),
 * each forwarded to the service through `client`. A refusal is an `isError` result whose last text block
 * starts with the service's code (`PAYMENT_REQUIRED: ...`); an x402 challenge comes first, as its JSON (x402's
 * tool-result binding), and in `_meta["x402/payment-required"]`, a paid call's receipt in
 * `_meta["x402/payment-response"]`, as the service's own MCP endpoint carries them.
 */
export function createMcpServer({ client, pay }: McpServerParameters): McpServer {
  const server = new McpServer({
    name: "base-capability-client",
    title: "Base capability and market service (local)",
    version: clientVersion,
  });
  for (const tool of toolDefinitions) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: fromJsonSchema<Record<string, unknown>>(tool.inputSchema as JsonSchemaType),
        annotations: toolAnnotations,
      },
      async (input: Record<string, unknown>): Promise<CallToolResult> => {
        try {
          const { data, receipt } = await callTool(client, tool.name, input, { pay });
          return {
            content: [{ type: "text", text: JSON.stringify(data) }],
            structuredContent: data as Record<string, unknown>,
            _meta: receipt ? { "x402/payment-response": receipt } : {},
          };
        } catch (error) {
          if (error instanceof ServiceError) return errorResult(error);
          throw error;
        }
      },
    );
  }
  return server;
}

function errorResult(error: ServiceError): CallToolResult {
  const challenge = error instanceof PaymentRequiredError ? error.challenge : null;
  const refusal = { type: "text" as const, text: `${error.code}: ${error.message}` };
  // x402's tool-result binding, as the service's own endpoint answers: the PaymentRequired JSON first.
  const content: CallToolResult["content"] = challenge ? [{ type: "text", text: JSON.stringify(challenge) }, refusal] : [refusal];
  return { isError: true, content, _meta: challenge ? { "x402/payment-required": challenge } : {} };
}
