import { type ChildProcess, spawn } from "node:child_process";
import { resolve } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, inject, test } from "vitest";
import type { z } from "zod";
import {
  accessFigures,
  auditFigures,
  baseFigures,
  dissectFigures,
  indexerFigures,
  listenerFigures,
  marketFigures,
  memoryFigures,
  simulationFigures,
  x402Figures,
} from "../../bench/benchFigures";
import { type BenchService, benchService } from "../../bench/benchService";
import packageJson from "../../package.json";

/**
 * Benchmarks must not rot: each `npm run bench:*` script, run as a user runs it with the tiny settings
 * named at the top of its file, exits 0 and prints as its last line the JSON object its schema in
 * bench/benchFigures.ts describes (field names and types; the figures themselves mean nothing this small).
 * The audit reads the test run's devnet; bench:listener, bench:market, bench:memory and bench:x402 share one
 * `npm start` (bench/benchService.ts), on a throwaway database when DATABASE_URL is set. DATABASE_URL
 * and REDIS_URL, when set, reach every bench that takes them.
 */

const root = resolve(import.meta.dirname, "..", "..");
/**
 * bench/loadSettings.ts at its smallest (bench:access, bench:market): one 2-second run of each kind over
 * one connection, no warm-up. Over 50 connections a server starved by a Ponder booting beside it
 * answered none of a second's requests.
 */
const tinyLoad = {
  BENCH_DURATION: "2",
  BENCH_ROUNDS: "1",
  BENCH_RATE_SECONDS: "2",
  BENCH_WARMUP_SECONDS: "0",
  BENCH_CONNECTIONS: "1",
  BENCH_RATE_CONNECTIONS: "1",
};
/** Generous: each bench bounds its own waits; this only stops one that hangs. */
const benchTimeoutMs = 600_000;

/** The bench running now, in a process group of its own, so a test that times out stops all it started. */
let running: ChildProcess | undefined;

/** `npm run <script>` with `env` added: its exit code, its stdout and the tail of both for a failure's message. */
function runBench(script: string, env: Record<string, string>): Promise<{ code: number | null; stdout: string; tail: string }> {
  return new Promise((done, fail) => {
    const child = spawn("npm", ["run", "--silent", script], {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    running = child;
    let stdout = "";
    let output = "";
    child.stdout.on("data", (d: Buffer) => {
      stdout += d.toString();
      output += d.toString();
    });
    child.stderr.on("data", (d: Buffer) => (output += d.toString()));
    child.once("error", fail);
    child.once("exit", (code) => {
      running = undefined;
      done({ code, stdout, tail: output.slice(-4000) });
    });
  });
}

/** Runs `script` and checks its exit code and its last line against `figures`. */
async function expectFigures(script: string, env: Record<string, string>, figures: z.ZodType): Promise<void> {
  const { code, stdout, tail } = await runBench(script, env);
  expect(code, tail).toBe(0);
  const last = stdout.trim().split("\n").at(-1) ?? "";
  const parsed = figures.safeParse(parseJson(last));
  expect(parsed.error?.issues ?? [], `last line: ${last}\n${tail}`).toEqual([]);
}

/** `line` parsed, or the line itself when it is no JSON (the schema then refuses it). */
function parseJson(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return line;
  }
}

afterEach(async () => {
  const child = running;
  if (!child?.pid || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((done) => child.once("exit", done));
  process.kill(-child.pid, "SIGINT");
  const forced = setTimeout(() => child.pid && process.kill(-child.pid, "SIGKILL"), 15_000);
  await exited;
  clearTimeout(forced);
});

describe("npm run bench:* with tiny settings: exit 0, last line the documented JSON", { timeout: benchTimeoutMs }, () => {
  // The `npm start` that bench:listener, bench:market, bench:memory and bench:x402 share, started first: it boots
  // while the benches that need none run.
  let sharedService: Promise<BenchService> | undefined;
  beforeAll(() => {
    sharedService = benchService();
    // Its failure is reported by the tests that await it.
    sharedService.catch(() => {});
  });
  afterAll(async () => {
    const service = await sharedService?.catch(() => undefined);
    await service?.stop();
  });
  /** The settings that point a service benchmark at the shared `npm start`, once it is ready. */
  const onSharedService = async () => {
    const service = await sharedService;
    if (!service) throw new Error("the shared service was never started");
    return { BENCH_SERVICE_URL: service.baseUrl, BENCH_SERVICE_MANIFEST: service.manifestPath, DATABASE_URL: service.databaseUrl ?? "" };
  };

  /** Each script's tiny settings and its schema, in the order they run (the longest first, the shared service's last). */
  const smokeRuns: Record<string, { env: () => Promise<Record<string, string>> | Record<string, string>; figures: z.ZodType }> = {
    "bench:indexer": {
      env: () => ({
        BENCH_BLOCKS: "1",
        BENCH_SWAPS_PER_BLOCK: "10",
        BENCH_TRANSFERS_PER_BLOCK: "10",
        BENCH_WARMUP: "0",
        BENCH_ROUNDS: "1",
        BENCH_LAG_SECONDS: "1",
      }),
      figures: indexerFigures,
    },
    "bench:base": {
      env: () => ({
        ...tinyLoad,
        BENCH_SECONDS: "3",
        BENCH_BLOCK_SECONDS: "1",
        BENCH_SWAPS_PER_BLOCK: "2",
        BENCH_TRANSFERS_PER_BLOCK: "2",
      }),
      figures: baseFigures,
    },
    "bench:dissect": { env: () => ({ BENCH_WARMUP: "0", BENCH_ROUNDS: "1" }), figures: dissectFigures },
    "bench:audit": {
      env: () => ({ BENCH_WARMUP: "0", BENCH_ROUNDS: "1", BENCH_DEVNET_MANIFEST: inject("manifestPath") }),
      figures: auditFigures,
    },
    "bench:simulation": {
      env: () => ({ BENCH_WARMUP: "0", BENCH_ROUNDS: "1", BENCH_DEVNET_MANIFEST: inject("manifestPath") }),
      figures: simulationFigures,
    },
    "bench:access": { env: () => tinyLoad, figures: accessFigures },
    "bench:listener": {
      env: async () => ({ ...(await onSharedService()), BENCH_DURATION: "1", BENCH_ROUNDS: "1" }),
      figures: listenerFigures,
    },
    "bench:market": { env: async () => ({ ...(await onSharedService()), ...tinyLoad }), figures: marketFigures },
    "bench:memory": { env: async () => ({ ...(await onSharedService()), MEMORY_SECONDS: "1", MEMORY_RATE: "5" }), figures: memoryFigures },
    "bench:x402": {
      env: async () => ({
        ...(await onSharedService()),
        BENCH_CALLS: "2",
        BENCH_PAYERS: "1",
        BENCH_SECONDS: "1",
        BENCH_CLAIM_WAIT_SECONDS: "0",
      }),
      figures: x402Figures,
    },
  };

  test("every bench:* script of package.json has a smoke run here", () => {
    const scripts = Object.keys(packageJson.scripts).filter((name) => name.startsWith("bench:"));
    expect(Object.keys(smokeRuns).sort()).toEqual(scripts.sort());
  });

  for (const [script, { env, figures }] of Object.entries(smokeRuns)) {
    test(script, async () => {
      await expectFigures(script, await env(), figures);
    });
  }
});
