import type { Server, ServerResponse } from "node:http";
import { createAdaptorServer, type HttpBindings } from "@hono/node-server";
import { rememberNodeRequest } from "../http/requestHeader";

/** How long an idle kept-alive connection stays open. */
export const keepAliveTimeoutMs = 65_000;
/** While closing, how often connections turned idle are closed. */
const closingSweepMs = 100;

/** What the listener serves: a Hono app, or anything with its `fetch`. */
export type FetchApp = { fetch: (request: Request, env: HttpBindings) => Response | Promise<Response> };

/** Where to listen and what to serve first. */
export type StartPublicListenerParameters = { host: string; port: number; app: FetchApp };

/** A running listener: swap its app, or close it. */
export type PublicListener = {
  /** Serves `app` from the next request on (Ponder reloads the API file in dev mode). */
  use(app: FetchApp): void;
  /**
   * Stops accepting connections, drops idle ones, and resolves once the requests in flight are answered
   * and the port is free (every call answers the same promise).
   */
  close(): Promise<void>;
};

/**
 * The API's own HTTP listener (`@hono/node-server`) on host:port. Resolves once bound; rejects when
 * the address cannot be bound (EADDRINUSE), so the process that needs it fails at start.
 */
export function startPublicListener({ host, port, app }: StartPublicListenerParameters): Promise<PublicListener> {
  let current = app;
  let closing: Promise<void> | undefined;
  const server = createAdaptorServer({
    fetch: (request, env) => {
      rememberNodeRequest(request, (env as HttpBindings).incoming);
      return current.fetch(request, env as HttpBindings);
    },
  }) as Server;
  // Past any load balancer's idle timeout (60 s is the common default), so the balancer, never we, closes
  // an idle kept-alive connection: closing it ourselves races a request sent on it (a reset the client sees).
  server.keepAliveTimeout = keepAliveTimeoutMs;
  server.headersTimeout = keepAliveTimeoutMs + 1_000;
  const listener: PublicListener = {
    use(next) {
      current = next;
    },
    close: () =>
      (closing ??= new Promise((done) => {
        if (!server.listening) return done();
        // Answers sent from now on end their connection; one whose request in flight was just answered turns
        // idle and would be kept for the whole keep-alive timeout: swept until the last one is gone (a request
        // that never ends, an SSE stream, holds the close as it always did; the sweep keeps no process alive).
        server.on("request", (_request, response: ServerResponse) => {
          response.shouldKeepAlive = false;
        });
        const sweep = setInterval(() => server.closeIdleConnections(), closingSweepMs).unref();
        server.close(() => {
          clearInterval(sweep);
          done();
        });
        server.closeIdleConnections();
      })),
  };
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve(listener);
    });
  });
}
