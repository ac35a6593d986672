import { randomUUID } from "node:crypto";
import type { McpServer } from "@modelcontextprotocol/server";
import { SseSessionTransport } from "./SseSessionTransport";

export type SseSessions = {
  /** A new session with its own server, or null when `maxStreams` streams are open. */
  open(messagesPath: string): SseSessionTransport | null;
  get(sessionId: string): SseSessionTransport | undefined;
};

export type CreateSseSessionsParameters = {
  newServer: () => McpServer;
  /** Open legacy streams at most (each holds a connection and a server). */
  maxStreams: number;
  keepAliveMs: number;
};

/**
 * The legacy HTTP+SSE sessions of this process: one stream and one MCP server each, bounded in number,
 * each removed (and its server closed) as soon as its stream ends, whichever side ends it.
 */
export function createSseSessions({ newServer, maxStreams, keepAliveMs }: CreateSseSessionsParameters): SseSessions {
  const sessions = new Map<string, SseSessionTransport>();
  return {
    open(messagesPath) {
      if (sessions.size >= maxStreams) return null;
      const sessionId = randomUUID();
      const transport = new SseSessionTransport({ sessionId, endpoint: `${messagesPath}?sessionId=${sessionId}`, keepAliveMs });
      sessions.set(sessionId, transport);
      // Set before connect: the server chains its own close handling after ours.
      transport.onclose = () => sessions.delete(sessionId);
      void newServer()
        .connect(transport)
        .catch(() => transport.close());
      return transport;
    },
    get: (sessionId) => sessions.get(sessionId),
  };
}
