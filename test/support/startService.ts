import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { loadConfig } from "../../api/config";
import { freePort } from "../../devnet/anvil";
import { ponderNodeFlags } from "../../scripts/ponderProcess";

export type RunningService = {
  /** The public listener (HOST:PORT). */
  baseUrl: string;
  /** Ponder's own server (127.0.0.1:INDEXER_PORT). */
  indexerPort: number;
  manifestPath: string;
  output: () => string;
  /** The exit code once the process has exited by itself, else null. */
  exitCode: () => number | null;
  /** Stops it as Ctrl-C would; resolves with the exit code. */
  stop(): Promise<number | null>;
};

const root = resolve(import.meta.dirname, "..", "..");

/** Runs `npm start`'s entry point as a user would, on free ports and a private data folder. */
export async function startService(env: Record<string, string> = {}): Promise<RunningService> {
  const dir = mkdtempSync(join(tmpdir(), "svc-start-"));
  return runProcess(["--import", "tsx", "scripts/start.ts"], dir, {
    DEVNET_PORT: String(await freePort()),
    DEVNET_MANIFEST: join(dir, "manifest.json"),
    PGLITE_DIR: join(dir, "pglite"),
    APP_PGLITE_DIR: join(dir, "app"),
    DATABASE_URL: "",
    ...env,
  });
}

/**
 * Runs `npm run start:cluster`'s entry point on `databaseUrl` (a throwaway database's): the devnet, the
 * indexer with the API on PORT, and CLUSTER_REPLICAS replicas on PORT + 2i (`replicaUrls`); `env` adds to
 * (or replaces) its environment.
 */
export async function startCluster(
  databaseUrl: string,
  replicas: number,
  env: Record<string, string> = {},
): Promise<RunningService & { replicaUrls: string[] }> {
  const dir = mkdtempSync(join(tmpdir(), "svc-cluster-"));
  const running = await runProcess(["--import", "tsx", "scripts/startCluster.ts"], dir, {
    DEVNET_PORT: String(await freePort()),
    DEVNET_MANIFEST: join(dir, "manifest.json"),
    DATABASE_URL: databaseUrl,
    CLUSTER_REPLICAS: String(replicas),
    ...env,
  });
  const port = Number(new URL(running.baseUrl).port);
  return { ...running, replicaUrls: Array.from({ length: replicas }, (_, i) => `http://127.0.0.1:${port + 2 * (i + 1)}`) };
}

/**
 * Runs an API replica as the README says (`ponder serve`, Postgres only) beside `service`, with its
 * database and devnet (`env` carries DATABASE_URL), on free ports of its own, with the start scripts' semi-space
 * (PONDER_SEMI_SPACE_MB).
 */
export async function startReplica(service: Pick<RunningService, "manifestPath">, env: Record<string, string>): Promise<RunningService> {
  const dir = mkdtempSync(join(tmpdir(), "svc-replica-"));
  const schema = process.env.DATABASE_SCHEMA || "svc_index";
  const { ponderSemiSpaceMb } = loadConfig({ ...process.env, ...env });
  return runProcess(
    [...ponderNodeFlags({ semiSpaceMb: ponderSemiSpaceMb }), join(root, "node_modules", ".bin", "ponder"), "serve", "--schema", schema],
    dir,
    {
      DEVNET_MANIFEST: service.manifestPath,
      APP_PGLITE_DIR: join(dir, "app"),
      ...env,
    },
  );
}

/**
 * How long a test service waits on the shared devnet (RPC_TIMEOUT_MS; `devnetProvider` in-process): every
 * file of the run reads the one anvil, and on a loaded 2-core machine an answer can take longer than the
 * product's 4 s default (a read timed out there is a 503 no test means). Tests of timeouts name their own.
 * Here rather than in devnet.ts: the benches load this module outside vitest.
 */
export const devnetReadTimeoutMs = 20_000;

/**
 * Starts `node args` in the repository with PORT and INDEXER_PORT on free ports; `dir` is removed on stop.
 * TypeScript entry points run with tsx as a loader, as package.json runs them (scripts/start.ts says why).
 */
async function runProcess(args: string[], dir: string, env: Record<string, string>): Promise<RunningService> {
  const port = await freePort();
  const indexerPort = await freePort();
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      INDEXER_PORT: String(indexerPort),
      RPC_TIMEOUT_MS: String(devnetReadTimeoutMs),
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr?.on("data", (d: Buffer) => (output += d.toString()));
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    indexerPort,
    manifestPath: env.DEVNET_MANIFEST ?? "",
    output: () => output,
    exitCode: () => child.exitCode,
    stop: () =>
      new Promise((done) => {
        const finish = (code: number | null) => {
          rmSync(dir, { recursive: true, force: true });
          done(code);
        };
        if (child.exitCode !== null) return finish(child.exitCode);
        child.once("exit", (code) => finish(code));
        child.kill("SIGINT");
        setTimeout(() => child.kill("SIGKILL"), 30_000).unref();
      }),
  };
}

/** Polls `url` until `accept` holds for its JSON body, or fails after `timeoutMs`. */
export async function waitForJson<T>(
  url: string,
  accept: (status: number, body: T) => boolean,
  timeoutMs: number,
  service?: RunningService,
): Promise<{ status: number; body: T; elapsedMs: number }> {
  const started = Date.now();
  let last = "no answer";
  while (Date.now() - started < timeoutMs) {
    if (service && service.exitCode() !== null) {
      throw new Error(`the service exited with ${service.exitCode()}:\n${service.output().slice(-4000)}`);
    }
    try {
      const res = await fetch(url);
      const body = (await res.json()) as T;
      if (accept(res.status, body)) return { status: res.status, body, elapsedMs: Date.now() - started };
      last = `${res.status} ${JSON.stringify(body).slice(0, 300)}`;
    } catch (err) {
      last = String(err);
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`${url} did not become ready within ${timeoutMs} ms; last: ${last}`);
}
