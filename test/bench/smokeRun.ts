import { type ChildProcess, spawn } from "node:child_process";
import { resolve } from "node:path";
import { expect } from "vitest";
import type { z } from "zod";
import { baseFigures, indexerFigures } from "../../bench/benchFigures";

/**
 * Benchmarks must not rot: each `npm run bench:*` script, run as a user runs it with the tiny settings
 * named at the top of its file, exits 0 and prints as its last line the JSON object its schema in
 * bench/benchFigures.ts describes (field names and types; the figures themselves mean nothing this small).
 * bench:indexer and bench:base start devnets of their own, each in a test file of its own (about 90 s
 * each), so that they run beside the other files; test/bench/benchSmoke.test.ts runs the rest.
 */

const root = resolve(import.meta.dirname, "..", "..");
/**
 * bench/loadSettings.ts at its smallest (bench:access, bench:market): one 2-second run of each kind over
 * one connection, no warm-up. Over 50 connections a server starved by a Ponder booting beside it
 * answered none of a second's requests.
 */
export const tinyLoad = {
  BENCH_DURATION: "2",
  BENCH_ROUNDS: "1",
  BENCH_RATE_SECONDS: "2",
  BENCH_WARMUP_SECONDS: "0",
  BENCH_CONNECTIONS: "1",
  BENCH_RATE_CONNECTIONS: "1",
};
/** Generous: each bench bounds its own waits; this only stops one that hangs. */
export const benchTimeoutMs = 600_000;

/** A script's tiny settings and the schema of its last line. */
export type SmokeRun = { env: () => Promise<Record<string, string>> | Record<string, string>; figures: z.ZodType };

/** The benches that start a devnet of their own. */
export const ownDevnetSmokeRuns = {
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
} satisfies Record<string, SmokeRun>;

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

/** Runs `script` with its smoke settings and checks its exit code and its last line against its schema. */
export async function expectFigures(script: string, { env, figures }: SmokeRun): Promise<void> {
  const { code, stdout, tail } = await runBench(script, await env());
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

/** Stops the bench a test left running (it timed out), with all it started: for `afterEach`. */
export async function stopRunningBench(): Promise<void> {
  const child = running;
  if (!child?.pid || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((done) => child.once("exit", done));
  process.kill(-child.pid, "SIGINT");
  const forced = setTimeout(() => child.pid && process.kill(-child.pid, "SIGKILL"), 15_000);
  await exited;
  clearTimeout(forced);
}
