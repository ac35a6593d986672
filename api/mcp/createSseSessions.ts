import { randomUUID } from "node:crypto";
import type { McpServer } from "@modelcontextprotocol/server";
import { failure, type Result, success } from "../errors";
import { mcp } from "./mcpRoutes";
import { SseSessionTransport, type SseStreamBounds } from "./SseSessionTransport";

export type SseSessions = {
  /**
   * A new session with its own server for `client` (its address's bucket), or a refusal: the replica holds
   * its `maxStreams` streams (MCP_STREAMS_EXHAUSTED), or the client its `maxStreamsPerClient`
   * (MCP_TOO_MANY_STREAMS).
   */
  open(messagesPath: string, client: string): Result<SseSessionTransport>;
  get(sessionId: string): SseSessionTransport | undefined;
};

export type CreateSseSessionsParameters = {
  newServer: () => McpServer;
  /** Open legacy streams at most (each holds a connection and a server). */
  maxStreams: number;
  /** Open legacy streams one client address may hold at most: its share of `maxStreams`. */
  maxStreamsPerClient: number;
  stream: SseStreamBounds;
};

/** What a refused client is told to wait before it tries again: a place frees as soon as a stream ends. */
const retryAfterSeconds = 5;

/**
 * The legacy HTTP+SSE sessions of this process: one stream and one MCP server each, bounded in number
 * in all and per client address, each removed (and its server closed) as soon as its stream ends,
 * whichever side ends it.
 */
export function createSseSessions({ newServer, maxStreams, maxStreamsPerClient, stream }: CreateSseSessionsParameters): SseSessions {
  const sessions = new Map<string, SseSessionTransport>();
  const heldBy = new Map<string, number>();
  return {
    open(messagesPath, client) {
      if (sessions.size >= maxStreams) {
        return failure("MCP_STREAMS_EXHAUSTED", `all ${maxStreams} legacy SSE streams are open; retry later, or use POST ${mcp.path}`, {
          retryAfterSeconds,
        });
      }
      const held = heldBy.get(client) ?? 0;
      if (held >= maxStreamsPerClient) {
        return failure(
          "MCP_TOO_MANY_STREAMS",
          `this address holds its ${maxStreamsPerClient} open legacy SSE streams; close one, or use POST ${mcp.path}`,
          { retryAfterSeconds },
        );
      }
      const sessionId = randomUUID();
      const transport = new SseSessionTransport({ sessionId, endpoint: `${messagesPath}?sessionId=${sessionId}`, ...stream });
      sessions.set(sessionId, transport);
      heldBy.set(client, held + 1);
      // Set before connect: the server chains its own close handling after ours.
      transport.onclose = () => {
        sessions.delete(sessionId);
        const left = (heldBy.get(client) ?? 1) - 1;
        if (left > 0) heldBy.set(client, left);
        else heldBy.delete(client);
      };
      void newServer()
        .connect(transport)
        .catch(() => transport.close());
      return success(transport);
    },
    get: (sessionId) => sessions.get(sessionId),
  };
}
