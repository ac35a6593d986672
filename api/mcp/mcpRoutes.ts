import { z } from "zod";
import { defineRoute } from "../routes/defineRoute";

/** The MCP endpoints' definitions; `mountMcpRoutes` serves them. */
export const mcp = defineRoute({
  group: "MCP",
  method: "post",
  path: "/mcp",
  summary: "MCP Streamable HTTP: one JSON-RPC request, notification or response per POST (a JSON object)",
  description:
    "Negotiates protocol 2026-07-28 and the stateless 2025-era versions (2025-11-25, 2025-06-18, 2025-03-26). No credential is needed to connect: each tool call enforces its REST route's access from this request's headers (x-api-key or Authorization: Bearer, or PAYMENT-SIGNATURE) or an x402 PaymentPayload in the call's _meta[\"x402/payment\"]; an unpaid call gets x402's MCP binding (a payment_required result where the request advertises org.x402/payment, else a tool error carrying the PaymentRequired). Protocol errors are JSON-RPC error objects (the service's code in error.data.error). Limited per client address: MCP_REQUESTS_PER_MINUTE over POST /mcp, GET /sse and POST /messages together, beyond it 429 RATE_LIMITED with Retry-After. Tools and their schemas: GET /.well-known/mcp/server-card.json.",
  access: "public",
  rateLimited: "MCP",
  responses: {
    200: { description: "The JSON-RPC response as application/json, or as a text/event-stream, per the Accept header and the protocol" },
    202: { description: "A notification or response was accepted; no body" },
  },
  errors: ["CREDENTIAL_IN_QUERY", "MCP_INVALID_MESSAGE", "MCP_ORIGIN_REJECTED", "MCP_NOT_ACCEPTABLE", "BODY_TOO_LARGE", "RATE_LIMITED"],
});

export const mcpStream = defineRoute({
  group: "MCP",
  method: "get",
  path: "/mcp",
  summary: "MCP server event stream: 405 with Allow: POST, as this endpoint is stateless (no listenable stream)",
  access: "public",
  rateLimited: "MCP",
  responses: {},
  errors: ["CREDENTIAL_IN_QUERY", "MCP_ORIGIN_REJECTED", "METHOD_NOT_ALLOWED", "RATE_LIMITED"],
});

export const mcpSse = defineRoute({
  group: "MCP",
  method: "get",
  path: "/sse",
  summary: "Legacy MCP HTTP+SSE stream (protocol 2024-11-05 clients): an endpoint event, then the session's messages",
  description:
    "One stream per session, closed and freed when the client goes, when no message was posted to it for MCP_SSE_IDLE_SECONDS, or when more than MCP_SSE_MAX_QUEUED_BYTES of its replies wait unread; a keep-alive comment every 15 s. Open streams are bounded per client address (MCP_MAX_SSE_STREAMS_PER_CLIENT: beyond it 429 MCP_TOO_MANY_STREAMS) and per replica (MCP_MAX_SSE_STREAMS: beyond it 503 MCP_STREAMS_EXHAUSTED).",
  access: "public",
  rateLimited: "MCP",
  responses: { 200: { description: "text/event-stream: `event: endpoint` with /messages?sessionId=..., then `event: message` frames" } },
  errors: ["CREDENTIAL_IN_QUERY", "MCP_ORIGIN_REJECTED", "MCP_STREAMS_EXHAUSTED", "MCP_TOO_MANY_STREAMS", "RATE_LIMITED"],
});

export const mcpMessages = defineRoute({
  group: "MCP",
  method: "post",
  path: "/messages",
  summary: "Legacy MCP message handler paired with GET /sse: one JSON-RPC message per POST; the reply travels on the stream",
  access: "public",
  rateLimited: "MCP",
  request: { query: z.object({ sessionId: z.string().max(64).describe("The sessionId named by the /sse endpoint event") }) },
  responses: {
    200: { description: "{accepted: true}: the message was handed to the session", schema: z.object({ accepted: z.literal(true) }) },
  },
  errors: [
    "CREDENTIAL_IN_QUERY",
    "INVALID_PARAMETER",
    "MCP_INVALID_MESSAGE",
    "MCP_ORIGIN_REJECTED",
    "MCP_SESSION_NOT_FOUND",
    "BODY_TOO_LARGE",
    "RATE_LIMITED",
  ],
});

export const mcpServerCard = defineRoute({
  group: "MCP",
  method: "get",
  path: "/.well-known/mcp/server-card.json",
  summary: "MCP server card: server info, transports and their URLs, the authentication headers, and each tool with its input schema",
  access: "public",
  rateLimited: false,
  responses: { 200: { description: "The server card" } },
  errors: ["CREDENTIAL_IN_QUERY"],
});

export const mcpRegistryEntry = defineRoute({
  group: "MCP",
  method: "get",
  path: "/.well-known/mcp/server.json",
  summary: "MCP registry entry (server.json, the official registry's 2025-12-11 schema): the remote endpoints and the stdio npm package",
  description:
    "What an operator publishes to the official MCP registry with its publisher CLI (mcp-publisher publish). Built from the same definitions as the server card: the same name, version, description and endpoint URLs.",
  access: "public",
  rateLimited: false,
  responses: { 200: { description: "The server.json document" } },
  errors: ["CREDENTIAL_IN_QUERY"],
});
