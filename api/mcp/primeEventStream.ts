import { DEFAULT_NEGOTIATED_PROTOCOL_VERSION, isInitializeRequest, SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/server";

/** The first protocol whose transport asks for a priming event, and whose clients skip an event with empty data. */
const firstPrimedVersion = "2025-11-25";

/**
 * Milliseconds a client should wait before reconnecting to a `POST /mcp` event stream (the SSE `retry`
 * field). A reconnection resumes nothing (the endpoint is stateless: `GET /mcp` is 405), so this only
 * paces that one attempt.
 */
export const mcpStreamRetryMs = 1000;

/**
 * Whether the client of this 2025-era message reads a priming event: the version it declared (an
 * initialize's requested one, else its `MCP-Protocol-Version`, else the SDK's default) is one the
 * stateless transport speaks, from 2025-11-25 on. The SDK's own rule: older clients parse an event's
 * empty data as JSON and report an error. A 2026-07-28 request is never primed (not a 2025-era version).
 */
export function readsPrimingEvent(message: object, protocolVersionHeader: string | undefined): boolean {
  const version = isInitializeRequest(message)
    ? message.params.protocolVersion
    : (protocolVersionHeader ?? DEFAULT_NEGOTIATED_PROTOCOL_VERSION);
  return SUPPORTED_PROTOCOL_VERSIONS.includes(version) && version >= firstPrimedVersion;
}

/**
 * `res` with the 2025-11-25 transport's priming event first when it is an event stream: an event id and
 * empty data, with the `retry` field. The id is random (nothing is stored to resume from it); the SDK's
 * stream follows unchanged, and cancelling the primed stream cancels it.
 */
export function primeEventStream(res: Response): Response {
  if (res.body === null || !res.headers.get("content-type")?.startsWith("text/event-stream")) return res;
  const priming = new TextEncoder().encode(`id: ${crypto.randomUUID()}\nretry: ${mcpStreamRetryMs}\ndata: \n\n`);
  const body = res.body.pipeThrough(new TransformStream<Uint8Array, Uint8Array>({ start: (controller) => controller.enqueue(priming) }));
  return new Response(body, res);
}
