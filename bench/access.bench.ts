/**
 * The access path of a metered call over HTTP, without a route's own work: bench/accessServer.ts (the
 * service's access middleware, a real app store, a PRO key, a constant answer; and the same answer
 * without the access middleware, which sets apart the cost of the listener and the error handler)
 * against a bare Hono server answering a constant, each in a process of its own, autocannon in this one (loopback, each run
 * bounded in time, interleaved rounds). What is left for a route's handler: the price route's figures
 * are `npm run bench:market`'s. PGlite, or Postgres with DATABASE_URL; Redis limits with REDIS_URL.
 * The load: bench/loadSettings.ts (BENCH_CPU_PROF_DIR: the access server's V8 CPU profile, which
 * bench/cpuProfileSummary.ts reads).
 * Tiny (the smoke test): BENCH_DURATION=2 BENCH_ROUNDS=1 BENCH_RATE_SECONDS=2 BENCH_WARMUP_SECONDS=0
 * BENCH_CONNECTIONS=1 BENCH_RATE_CONNECTIONS=1.
 * Plain script: `npm run bench:access`. Last line: one JSON object, `accessFigures` in bench/benchFigures.ts.
 */

import { type ChildProcess, spawn } from "node:child_process";
import { resolve } from "node:path";
import { freePort } from "../devnet/anvil";
import { createThrowawayDatabase } from "../test/support/postgres";
import { accessFigures, printFigures } from "./benchFigures";
import type { LoadTarget } from "./compareWithBareHono";
import { keyOf, loadSettings } from "./loadSettings";
import { measureLoad } from "./measureLoad";
import { measureSteadyRate } from "./measureSteadyRate";
import { median } from "./median";
import { startBareHono } from "./startBareHono";

const { duration, connections, rounds, rateSeconds, rateConnections, warmupSeconds, cpuProfileDir } = loadSettings;
const databaseUrl = process.env.DATABASE_URL || undefined;
const root = resolve(import.meta.dirname, "..");

const bare = await startBareHono();
const database = databaseUrl ? await createThrowawayDatabase(databaseUrl) : undefined;
const server = await startAccessServer();
try {
  const metered = (run: number) => ({ url: `${server.url}/metered`, headers: { "x-api-key": keyOf(server.apiKeys, run) } });
  const measure = (target: LoadTarget, seconds: number) => measureLoad({ ...target, connections, seconds });
  const steady = (target: LoadTarget) =>
    measureSteadyRate({ ...target, connections: rateConnections, seconds: rateSeconds, rate: 1000, warmupSeconds });
  const open = { url: `${server.url}/open` };
  // One answer from each first, untimed: the first metered call opens the store's and Redis's connections.
  const firstCalls: LoadTarget[] = [{ url: `${bare.url}/` }, open, metered(0)];
  for (const target of firstCalls) {
    const res = await fetch(target.url, { headers: target.headers });
    if (res.status !== 200) throw new Error(`${target.url} answered ${res.status} ${await res.text()}`);
  }
  if (warmupSeconds > 0) {
    // JIT, connections, the key cache
    await measure({ url: `${bare.url}/` }, warmupSeconds);
    await measure(metered(0), warmupSeconds);
  }
  const bareRps: number[] = [];
  const openRps: number[] = [];
  const meteredRps: number[] = [];
  for (let round = 1; round <= rounds; round++) {
    const b = await measure({ url: `${bare.url}/` }, duration);
    const o = await measure(open, duration);
    const m = await measure(metered(round), duration);
    bareRps.push(b.rps);
    openRps.push(o.rps);
    meteredRps.push(m.rps);
    console.log(
      `round ${round}: bare Hono ${b.rps.toFixed(0)} req/s; no access ${o.rps.toFixed(0)}; keyed and metered ${m.rps.toFixed(0)} (p99 ${m.p99Ms} ms at full load)`,
    );
  }
  const fixedBare = await steady({ url: `${bare.url}/` });
  const fixed = await steady(metered(rounds + 1));
  console.log(
    `at a steady 1,000 req/s for ${rateSeconds} s over ${rateConnections} connections: p99 ${fixed.p99Ms} ms keyed and metered, ${fixedBare.p99Ms} ms bare Hono`,
  );
  printFigures(accessFigures, {
    ratioVsBareHono: Number((median(meteredRps) / median(bareRps)).toFixed(3)),
    p99MsAt1000rps: fixed.p99Ms,
    bareHonoP99MsAt1000rps: fixedBare.p99Ms,
    backend: database ? "postgres" : "pglite",
    rateLimits: process.env.REDIS_URL ? "redis" : "memory",
    bareHonoRps: Math.round(median(bareRps)),
    noAccessRps: Math.round(median(openRps)),
    meteredRps: Math.round(median(meteredRps)),
    // What the access path adds to a call, from two throughputs of the same server.
    accessMicrosecondsPerCall: Math.round(1e6 / median(meteredRps) - 1e6 / median(openRps)),
  });
} finally {
  await server.stop();
  await database?.drop();
  await bare.stop();
}

/** bench/accessServer.ts in a process of its own (tsx as a loader), on a free port. */
async function startAccessServer(): Promise<{ url: string; apiKeys: string[]; stop(): Promise<void> }> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    process.execPath,
    [
      ...(cpuProfileDir ? ["--cpu-prof", `--cpu-prof-dir=${cpuProfileDir}`] : []),
      "--import",
      "tsx",
      "bench/accessServer.ts",
      String(port),
      String(rounds + 2),
    ],
    { cwd: root, env: { ...process.env, DATABASE_URL: database?.url ?? "" }, stdio: ["ignore", "pipe", "inherit"] },
  );
  const apiKeys = await new Promise<string[]>((ready, fail) => {
    child.stdout?.on("data", (d: Buffer) => {
      const match = /listening (\S+)/.exec(d.toString());
      if (match?.[1]) ready(match[1].split(","));
    });
    child.once("exit", (code) => fail(new Error(`access server exited with ${code}`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    apiKeys,
    stop: () =>
      new Promise((done) => {
        if (child.exitCode !== null) return done();
        child.once("exit", () => done());
        child.kill("SIGINT");
      }),
  };
}
