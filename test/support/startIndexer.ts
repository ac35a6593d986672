import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { freePort } from "../../devnet/anvil";
import { createThrowawayDatabase } from "./postgres";

/** Where a test indexer keeps its tables: its own PGlite folder, or a throwaway Postgres database. */
export type IndexerBackend = { kind: "pglite"; directory: string } | { kind: "postgres"; url: string };

export type RunningIndexer = {
  /** Ponder's own server (`/status`, `/ready`), on 127.0.0.1:INDEXER_PORT. */
  baseUrl: string;
  schema: string;
  backend: IndexerBackend;
  output: () => string;
  /** The block Ponder has indexed up to (its /status), or null before it has one. */
  indexedBlock(): Promise<number | null>;
  /** Reorgs Ponder has handled, from its "Reorged block" log lines (0.17 never counts them in /metrics). */
  reorgCount(): number;
  /** Stops it with SIGINT (Ponder releases its lock); resolves with the exit code. */
  stop(): Promise<number | null>;
  /** Removes the PGlite folder or drops the throwaway database; call after stop(). */
  cleanup(): Promise<void>;
};

const root = resolve(import.meta.dirname, "..", "..");

/**
 * Runs `ponder start` on the devnet of `manifestPath`, as npm start does, on a free port with its own
 * storage: a PGlite folder, or (`databaseUrl`) a throwaway database, because `ponder_sync` is keyed by
 * chain id and every devnet is chain 8453. `env` adds indexer settings (INDEXER_*).
 */
export async function startIndexer(options: {
  manifestPath: string;
  databaseUrl?: string;
  /** Run on `databaseUrl` itself (a restart on the database an earlier run made), not a throwaway copy. */
  reuseDatabase?: boolean;
  env?: Record<string, string>;
}): Promise<RunningIndexer> {
  const schema = "svc_test";
  const port = await freePort();
  const apiPort = await freePort();
  let backend: IndexerBackend;
  let dropDatabase = async () => {};
  if (options.databaseUrl && options.reuseDatabase) {
    backend = { kind: "postgres", url: options.databaseUrl };
  } else if (options.databaseUrl) {
    const db = await createThrowawayDatabase(options.databaseUrl);
    backend = { kind: "postgres", url: db.url };
    dropDatabase = db.drop;
  } else {
    backend = { kind: "pglite", directory: join(mkdtempSync(join(tmpdir(), "svc-indexer-")), "pglite") };
    mkdirSync(backend.directory, { recursive: true });
  }
  const child: ChildProcess = spawn(process.execPath, [join(root, "node_modules", ".bin", "ponder"), "start", "--schema", schema], {
    cwd: root,
    env: {
      ...process.env,
      // The API file puts Ponder's server on 127.0.0.1:INDEXER_PORT and the API's listener on PORT.
      PORT: String(apiPort),
      INDEXER_PORT: String(port),
      DEVNET_MANIFEST: options.manifestPath,
      DATABASE_URL: backend.kind === "postgres" ? backend.url : "",
      PGLITE_DIR: backend.kind === "pglite" ? backend.directory : "",
      // The API's own store and key pepper: never the repository's .data/app, which another process may hold.
      APP_PGLITE_DIR: backend.kind === "pglite" ? join(backend.directory, "..", "app") : "",
      API_KEY_PEPPER: "indexer-test-pepper-0123456789abcdef0123456789",
      ...options.env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr?.on("data", (d: Buffer) => (output += d.toString()));
  const baseUrl = `http://127.0.0.1:${port}`;
  return {
    baseUrl,
    schema,
    backend,
    output: () => output,
    async indexedBlock() {
      // A hung answer counts as no answer, so a stalled indexer is reported rather than waited on.
      const res = await fetch(`${baseUrl}/status`, { signal: AbortSignal.timeout(10_000) }).catch(() => undefined);
      if (!res?.ok) return null;
      const status = (await res.json()) as Record<string, { block: { number: number } } | undefined>;
      return status.base?.block.number ?? null;
    },
    reorgCount: () => output.split("Reorged block").length - 1,
    stop: () =>
      new Promise((done) => {
        if (child.exitCode !== null || child.signalCode !== null) return done(child.exitCode);
        child.once("exit", (code) => done(code));
        child.kill("SIGINT");
        setTimeout(() => child.kill("SIGKILL"), 15_000).unref();
      }),
    async cleanup() {
      if (backend.kind === "pglite") rmSync(resolve(backend.directory, ".."), { recursive: true, force: true });
      await dropDatabase();
    },
  };
}

/**
 * Waits until `indexer` has indexed `block`. A starved machine indexes slowly but steadily, so this fails
 * only once the indexer made no progress for `stallMs`, never after a fixed time.
 */
export async function waitForIndexed(indexer: RunningIndexer, block: bigint, stallMs = 30_000): Promise<number> {
  let highest: number | null = null;
  let stalledSince = Date.now();
  for (;;) {
    const indexed = await indexer.indexedBlock();
    if (indexed !== null && BigInt(indexed) >= block) return indexed;
    if (indexed !== null && (highest === null || indexed > highest)) {
      highest = indexed;
      stalledSince = Date.now();
    }
    if (Date.now() - stalledSince > stallMs) {
      throw new Error(
        `indexing block ${block}: no progress for ${stallMs} ms (at ${String(highest)})\n--- indexer output ---\n${indexer.output().slice(-4000)}`,
      );
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Polls until `ready` holds, or fails after `timeoutMs` with the indexer's last output. */
export async function waitFor<T>(
  what: string,
  probe: () => Promise<T>,
  ready: (value: T) => boolean,
  timeoutMs: number,
  indexer?: RunningIndexer,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: T | undefined;
  while (Date.now() < deadline) {
    last = await probe();
    if (ready(last)) return last;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(
    `${what}: not within ${timeoutMs} ms (last: ${String(last)})${indexer ? `\n--- indexer output ---\n${indexer.output().slice(-4000)}` : ""}`,
  );
}

/** Waits until `indexer`'s /ready answers 200 (its start-up done), or fails after `timeoutMs` with its output. */
export function waitForReady(indexer: RunningIndexer, timeoutMs: number): Promise<number> {
  const status = () =>
    fetch(`${indexer.baseUrl}/ready`)
      .then((r) => r.status)
      .catch(() => 0);
  return waitFor("/ready", status, (s) => s === 200, timeoutMs, indexer);
}
