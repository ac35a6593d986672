import { type AuthInfo, McpServer, type ServerContext } from "@modelcontextprotocol/server";
import type { Context } from "hono";
import type { AccessChain } from "../routes/MountRoute";
import { callTool, type PaymentBinding, type ToolCaller } from "./callTool";
import type { McpTool } from "./McpTool";
import { withJsonSchemaOnce } from "./withJsonSchemaOnce";

/** How the MCP server names itself (initialize, server/discover, the server card). */
export const mcpServerInfo = { name: "base-capability-market-service", title: "Base capability and market service", version: "2.2.0" };

/**
 * What the server advertises beyond tools: x402's `org.x402/payment` extension (2026-07-28), so a client that
 * advertises it too gets `payment_required` results (api/mcp/callTool.ts).
 */
export const mcpServerCapabilities = { extensions: { "org.x402/payment": {} } };

/** What every tool is: it only reads, and it reads the open world (the chain, our index of it). */
export const mcpToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: false, openWorldHint: true } as const;

/**
 * The HTTP connection a tool call came on, handed to the SDK as its pass-through `authInfo`: no token is
 * verified there; each tool enforces its route's access itself from the request's headers. The client
 * address is copied now, in the shape `getConnInfo` reads: a legacy session's tool runs after its POST
 * was answered, when the socket may be gone.
 */
export function connectionOf(c: Context): AuthInfo {
  const bindings = c.env as { incoming?: { socket?: { remoteAddress?: string; remotePort?: number; remoteFamily?: string } } } | undefined;
  const socket = bindings?.incoming?.socket;
  const env = socket
    ? { incoming: { socket: { remoteAddress: socket.remoteAddress, remotePort: socket.remotePort, remoteFamily: socket.remoteFamily } } }
    : undefined;
  return { token: "", clientId: "", scopes: [], extra: { env } };
}

/**
 * A factory of MCP servers (one per stateless request, one per legacy SSE session) with the tools
 * registered, each behind its REST route's middleware chain. What does not change between servers is
 * built once here: each tool's chain (as the app builds a route's) and its schemas' JSON Schema, so a
 * `tools/list` converts nothing.
 */
export function createMcpServerFactory(tools: readonly McpTool[], accessChain: AccessChain): () => McpServer {
  const registrations = tools.map((tool) => ({
    tool,
    chain: accessChain(tool.route),
    config: {
      title: tool.title,
      description: tool.description,
      inputSchema: withJsonSchemaOnce(tool.input),
      outputSchema: withJsonSchemaOnce(tool.output),
      annotations: mcpToolAnnotations,
    },
  }));
  return () => {
    const server = new McpServer(mcpServerInfo, { capabilities: mcpServerCapabilities });
    for (const { tool, chain, config } of registrations) {
      server.registerTool(tool.name, config, (input: unknown, ctx: ServerContext) => callTool(tool, input, callerOf(ctx), chain));
    }
    return server;
  };
}

function callerOf(ctx: ServerContext): ToolCaller {
  const request = ctx.http?.req;
  if (!request) throw new Error("an MCP tool call arrived without its HTTP request");
  return {
    request,
    env: (ctx.http?.authInfo?.extra as { env?: unknown } | undefined)?.env,
    payment: ctx.mcpReq._meta?.["x402/payment"],
    binding: paymentBindingOf(ctx.mcpReq.envelope as Record<string, unknown> | undefined),
  };
}

/** A 2026-07-28 request carries its protocol version and capabilities in its `_meta` envelope; a 2025-era one has none. */
function paymentBindingOf(envelope: Record<string, unknown> | undefined): PaymentBinding {
  const capabilities = envelope?.["io.modelcontextprotocol/clientCapabilities"] as { extensions?: Record<string, unknown> } | undefined;
  if (capabilities?.extensions?.["org.x402/payment"] !== undefined) return "extension";
  return envelope?.["io.modelcontextprotocol/protocolVersion"] === undefined ? "tool-result-unstructured" : "tool-result";
}
