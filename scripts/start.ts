import { mkdirSync } from "node:fs";
import { loadConfig } from "../api/config";
import { indexerServerHost } from "../api/listener/confineIndexerServer";
import { spawnPonder, stopPonder } from "./ponderProcess";
import { prepareChain } from "./prepareChain";

/**
 * `npm start`: with no Base RPC configured, the embedded devnet first; then Ponder indexing into
 * PGlite (or DATABASE_URL), the API served on HOST:PORT by our own listener in Ponder's process
 * (api/listener), Ponder's own server on 127.0.0.1:INDEXER_PORT. Ctrl-C stops all of it. Run by
 * `node --import tsx` (package.json), not the tsx CLI: the CLI relays Ctrl-C to this process and, when it
 * hears nothing back within 30 ms (a loaded machine), kills it with SIGKILL, leaving Ponder and the devnet
 * running (seen as exit code 130).
 */
async function main() {
  const config = loadConfig();
  const devnet = await prepareChain(config, "start");
  if (config.database.kind === "pglite") mkdirSync(config.database.directory, { recursive: true });

  const ponder = spawnPonder("start", config.databaseSchema, { oldSpaceMb: config.ponderHeapMb, semiSpaceMb: config.ponderSemiSpaceMb });
  console.log(`[start] API on http://${config.host}:${config.port}/v1/status`);
  console.log(`[start] Ponder's own server (operators) on http://${indexerServerHost}:${config.indexerPort}/status`);

  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    await stopPonder(ponder);
    await devnet?.stop();
    process.exit(code);
  };
  process.on("SIGINT", () => void stop(0));
  process.on("SIGTERM", () => void stop(0));
  ponder.on("exit", (code) => void stop(code ?? 1));
}

main().catch((err) => {
  console.error("[start] failed:", err instanceof Error ? err.message : err);
  process.exit(1);
});
