import { type Config, loadConfig } from "../config";
import type { IndexDb } from "../index/indexDb";
import { confineIndexerServer, indexerServerHost } from "./confineIndexerServer";
import { listenPublicApi } from "./listenPublicApi";
import { whenPonderStops } from "./whenPonderStops";

/** How long a stopping process waits for its requests in flight (Ponder exits 5 s after its stop began). */
const inFlightGraceMs = 3500;

/**
 * Run from the API file Ponder loads: moves Ponder's own server to 127.0.0.1:INDEXER_PORT, serves the
 * API on HOST:PORT from our own listener, and when Ponder stops answers the requests in flight, then gives
 * the app's leased credits back before Ponder exits.
 * Resolves once the public port is bound.
 */
export async function servePublicApi(indexDb: IndexDb, config: Config = loadConfig()): Promise<void> {
  confineIndexerServer(config.indexerPort);
  const { credits, listener } = await listenPublicApi(indexDb, config);
  // Requests in flight are answered (for up to 3.5 s of Ponder's 5-second grace; a paid call cut later is
  // recovered by its payment-identifier retry) before the credits go back. On the embedded devnet Ponder
  // closes the PGlite it shares with the app store at once, so leases are not given back there: the
  // devnet's state is reset at every start anyway.
  whenPonderStops(async () => {
    await Promise.race([listener.close(), new Promise((done) => setTimeout(done, inFlightGraceMs))]);
    await credits.release();
  });
  console.log(`[api] Ponder's own server on ${indexerServerHost}:${config.indexerPort}`);
}
