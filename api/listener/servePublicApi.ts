import { Hono } from "hono";
import { onePerProcess } from "../access/onePerProcess";
import { type Config, loadConfig } from "../config";
import { readIndexReadiness } from "../health/readIndexReadiness";
import type { IndexDb } from "../indexDb";
import { createServerApp } from "../server";
import { closeOnShutdown } from "./closeOnShutdown";
import { confineIndexerServer, indexerServerHost } from "./confineIndexerServer";
import { probeRoutes } from "./probeRoutes";
import { startPublicListener } from "./startPublicListener";

/**
 * Run from the API file Ponder loads: serves the API and the probes on HOST:PORT from our own listener
 * (started once per process; a reloaded API file swaps in its new app), and moves Ponder's own server to
 * 127.0.0.1:INDEXER_PORT. Resolves with the API app for Ponder's server, once the public port is bound.
 */
export async function servePublicApi(indexDb: IndexDb, config: Config = loadConfig()) {
  confineIndexerServer(config.indexerPort);
  const app = createServerApp(indexDb, config);
  const publicApp = new Hono().route("/", probeRoutes({ readiness: () => readIndexReadiness(indexDb) })).route("/", app);
  const listener = await onePerProcess("publicListener", () =>
    startPublicListener({ host: config.host, port: config.port, app: publicApp }).then((started) => {
      closeOnShutdown(started);
      console.log(
        `[api] listening on http://${config.host}:${config.port}; Ponder's own server on ${indexerServerHost}:${config.indexerPort}`,
      );
      return started;
    }),
  );
  listener.use(publicApp);
  return app;
}
