import { onePerProcess } from "../access/onePerProcess";
import { type Config, loadConfig } from "../config";
import type { IndexDb } from "../index/indexDb";
import { createServerApp } from "../server";
import { closeOnShutdown } from "./closeOnShutdown";
import { confineIndexerServer, indexerServerHost } from "./confineIndexerServer";
import { startPublicListener } from "./startPublicListener";

/**
 * Run from the API file Ponder loads: serves the API (with its probes) on HOST:PORT from our own listener
 * (started once per process; a reloaded API file swaps in its new app), and moves Ponder's own server to
 * 127.0.0.1:INDEXER_PORT. Resolves once the public port is bound.
 */
export async function servePublicApi(indexDb: IndexDb, config: Config = loadConfig()): Promise<void> {
  confineIndexerServer(config.indexerPort);
  const app = createServerApp(indexDb, config);
  const listener = await onePerProcess("publicListener", () =>
    startPublicListener({ host: config.host, port: config.port, app }).then((started) => {
      closeOnShutdown(started);
      console.log(
        `[api] listening on http://${config.host}:${config.port}; Ponder's own server on ${indexerServerHost}:${config.indexerPort}`,
      );
      return started;
    }),
  );
  listener.use(app);
}
