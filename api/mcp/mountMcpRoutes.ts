import { createMcpHandler, type JSONRPCMessage, parseJSONRPCMessage } from "@modelcontextprotocol/server";
import type { Context } from "hono";
import type { ServiceOrigins } from "../config";
import { defaultMcpLimits } from "../env/EnvSchema";
import { ApiError, type ErrorCode, errorCodes } from "../errors";
import { buildAnswer } from "../http/answer";
import { answerJson } from "../http/jsonAnswer";
import { readJsonBody } from "../http/jsonBody";
import { requestOrigin } from "../http/requestOrigin";
import { defaultMaxBodyBytes } from "../routes/defineRoute";
import type { AccessChain, MountRoute } from "../routes/MountRoute";
import { connectionOf, createMcpServerFactory } from "./createMcpServerFactory";
import { createSseSessions } from "./createSseSessions";
import type { McpTool } from "./McpTool";
import { mcp, mcpMessages, mcpRegistryEntry, mcpServerCard, mcpSse, mcpStream } from "./mcpRoutes";
import { primeEventStream, readsPrimingEvent } from "./primeEventStream";
import { registryEntry } from "./registryEntry";
import { serverCard } from "./serverCard";

/** The MCP endpoints' bounds and browser policy (the per-minute request budget is the access chain's: `rateLimited: "MCP"`). */
export type McpParameters = {
  /** Origins a browser may call the MCP endpoints from (403 otherwise); a request without Origin passes. */
  allowedOrigins: readonly string[];
  /** Open legacy SSE streams, and 2026-era listen streams, per replica at most. */
  maxStreams: number;
  /** Open legacy SSE streams per client address at most; default `defaultMcpLimits`'. */
  maxStreamsPerClient?: number;
  /** A legacy stream whose client posts nothing this long is closed; default `defaultMcpLimits`'. */
  streamIdleMs?: number;
  /** A legacy stream with more than this many bytes unread is closed; default `defaultMcpLimits`'. */
  maxQueuedBytes?: number;
  /** A keep-alive comment on every open stream this often. */
  keepAliveMs?: number;
};

export type MountMcpRoutesParameters = {
  tools: readonly McpTool[];
  accessChain: AccessChain;
  origins: ServiceOrigins;
  /** The per-address bucket of a request (hashed client address): whose streams a new one counts against. */
  clientBucket: (c: Context) => string;
  options: McpParameters;
};

/** Largest MCP message accepted (413 beyond it): the tools' arguments are an address or a symbol. */
const maxMessageBytes = defaultMaxBodyBytes;

/**
 * The MCP endpoints: the Streamable HTTP one (the v2 SDK's stateless handler, 2026-07-28 and the 2025-era
 * versions) behind our Origin, Accept and one-message-per-POST checks, its 2025-11-25 event streams primed;
 * the legacy SSE stream and its messages (2024-11-05) over our own session transport; the server card, and
 * the entry for the official MCP registry.
 */
export function mountMcpRoutes(mount: MountRoute, { tools, accessChain, origins, clientBucket, options }: MountMcpRoutesParameters): void {
  const keepAliveMs = options.keepAliveMs ?? 15_000;
  const newServer = createMcpServerFactory(tools, accessChain);
  const handler = createMcpHandler(() => newServer(), {
    legacy: "stateless",
    maxSubscriptions: options.maxStreams,
    keepAliveMs,
    maxRequestBodySize: maxMessageBytes,
  });
  const sessions = createSseSessions({
    newServer,
    maxStreams: options.maxStreams,
    maxStreamsPerClient: options.maxStreamsPerClient ?? defaultMcpLimits.maxStreamsPerClient,
    stream: {
      keepAliveMs,
      idleMs: options.streamIdleMs ?? defaultMcpLimits.streamIdleSeconds * 1000,
      maxQueuedBytes: options.maxQueuedBytes ?? defaultMcpLimits.maxQueuedBytes,
    },
  });
  const allowed = new Set(options.allowedOrigins);
  const originRefused = (c: Context) => {
    const origin = c.req.header("origin");
    return origin !== undefined && !allowed.has(origin);
  };
  const refusedOrigin = "this Origin may not call the MCP endpoints";
  // The SDK's answer (answerHeaders adds CORS to it).
  const forward = (c: Context, res: Response) => c.newResponse(res.body, res);

  mount(mcp, async (c) => {
    if (originRefused(c)) return rpcError(c, "MCP_ORIGIN_REJECTED", -32000, refusedOrigin);
    if (!acceptsJsonOrSse(c.req.header("accept"))) {
      return rpcError(c, "MCP_NOT_ACCEPTABLE", -32000, "Accept must allow application/json or text/event-stream");
    }
    const message = await readMessage(c);
    if (message instanceof Response) return message;
    const res = await handler.fetch(c.req.raw, { parsedBody: message, authInfo: connectionOf(c) });
    return forward(c, readsPrimingEvent(message, c.req.header("mcp-protocol-version")) ? primeEventStream(res) : res);
  });
  mount(mcpStream, async (c) => {
    if (originRefused(c)) return rpcError(c, "MCP_ORIGIN_REJECTED", -32000, refusedOrigin);
    return forward(c, await handler.fetch(c.req.raw));
  });
  mount(mcpSse, async (c) => {
    if (originRefused(c)) throw new ApiError("MCP_ORIGIN_REJECTED", refusedOrigin);
    const session = sessions.open(mcpMessages.path, clientBucket(c));
    if (!session.ok) throw ApiError.of(session);
    return c.body(session.value.stream, 200, { "Content-Type": "text/event-stream", "Cache-Control": "no-cache, no-transform" });
  });
  mount(mcpMessages, async (c) => {
    if (originRefused(c)) return rpcError(c, "MCP_ORIGIN_REJECTED", -32000, refusedOrigin);
    const session = sessions.get(c.req.valid("query").sessionId);
    if (!session)
      return rpcError(c, "MCP_SESSION_NOT_FOUND", -32001, `no open SSE session has this sessionId; open GET ${mcpSse.path} first`);
    const message = await readMessage(c);
    if (message instanceof Response) return message;
    let parsed: JSONRPCMessage;
    try {
      parsed = parseJSONRPCMessage(message);
    } catch {
      return rpcError(c, "MCP_INVALID_MESSAGE", -32600, "the body is not a JSON-RPC message");
    }
    session.receive(parsed, { request: c.req.raw, authInfo: connectionOf(c) });
    return answerJson(c, { accepted: true as const });
  });
  const card = perOrigin((origin) => serverCard(tools, origin));
  mount(mcpServerCard, (c) => answerJson(c, card(requestOrigin(c, origins)), { shared: true }));
  const entry = perOrigin((origin) => registryEntry(origin, origins));
  mount(mcpRegistryEntry, (c) => answerJson(c, entry(requestOrigin(c, origins)), { shared: true }));
}

/** `build` of an origin, built once: a request names one of the service's (at most two) origins. */
function perOrigin<T>(build: (origin: string) => T): (origin: string) => T {
  const built = new Map<string, T>();
  return (origin) => {
    const known = built.get(origin);
    if (known !== undefined) return known;
    const made = build(origin);
    built.set(origin, made);
    return made;
  };
}

/** One JSON-RPC message, a JSON object; anything else is answered here as a JSON-RPC error (a batch array runs nothing). */
async function readMessage(c: Context): Promise<object | Response> {
  const body = await readJsonBody(c.req.raw, maxMessageBytes);
  if (body.kind === "tooLarge") return rpcError(c, "BODY_TOO_LARGE", -32000, `an MCP message is at most ${maxMessageBytes} bytes`);
  if (body.kind === "malformed") return rpcError(c, "MCP_INVALID_MESSAGE", -32700, "Parse error: the body is not valid JSON");
  const { value } = body;
  if (Array.isArray(value)) {
    return rpcError(c, "MCP_INVALID_MESSAGE", -32600, "one JSON-RPC message per POST: batches (JSON arrays) are not accepted");
  }
  if (typeof value !== "object" || value === null) {
    return rpcError(c, "MCP_INVALID_MESSAGE", -32600, "the body must be one JSON-RPC message (a JSON object)");
  }
  return value;
}

/** A JSON-RPC error answer with `code`'s HTTP status (a refusal: nothing is charged); the service's code rides in `error.data.error`. */
function rpcError(c: Context, code: ErrorCode, rpcCode: number, message: string) {
  const body = JSON.stringify({ jsonrpc: "2.0", error: { code: rpcCode, message, data: { error: code } }, id: null });
  return buildAnswer(c, body, errorCodes[code].status, { "content-type": "application/json" });
}

/** Whether an Accept header allows JSON or an event stream (no header allows anything). */
export function acceptsJsonOrSse(accept: string | undefined): boolean {
  if (!accept?.trim()) return true;
  return accept.split(",").some((range) => {
    const [type = "", ...params] = range.split(";").map((p) => p.trim().toLowerCase());
    const q = params.find((p) => p.startsWith("q="));
    if (q && Number(q.slice(2)) === 0) return false;
    return ["*/*", "application/*", "application/json", "text/*", "text/event-stream"].includes(type);
  });
}
