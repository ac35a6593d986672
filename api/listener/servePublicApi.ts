import { type Config, loadConfig } from "../config";
import type { IndexDb } from "../index/indexDb";
import { confineIndexerServer, indexerServerHost } from "./confineIndexerServer";
import { listenPublicApi } from "./listenPublicApi";
import { whenPonderStops } from "./whenPonderStops";

/**
 * Run from the API file Ponder loads: moves Ponder's own server to 127.0.0.1:INDEXER_PORT, serves the
 * API on HOST:PORT from our own listener, and gives the app's leased credits back before Ponder exits.
 * Resolves once the public port is bound.
 */
export async function servePublicApi(indexDb: IndexDb, config: Config = loadConfig()): Promise<void> {
  confineIndexerServer(config.indexerPort);
  const { credits } = await listenPublicApi(indexDb, config);
  whenPonderStops(() => credits.release());
  console.log(`[api] Ponder's own server on ${indexerServerHost}:${config.indexerPort}`);
}
