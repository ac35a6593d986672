/**
 * The keyed price route under load (issue 10's benchmark): `npm start` as a user runs it (devnet with
 * its traffic generator, so blocks advance and prices move; PGlite, or Postgres with DATABASE_URL;
 * Redis limits with REDIS_URL), a PRO key bought over HTTP, and autocannon in this process (loopback,
 * each run bounded in time) against it and against a bare Hono server answering a constant:
 *  - ratioVsBareHono: the route's throughput (access checks and credit charging on, every answer a 200)
 *    over bare Hono's, medians of interleaved rounds;
 *  - p99MsAt1000rps: the route's p99 latency at a fixed 1,000 requests a second (autocannon corrects
 *    for coordinated omission);
 *  - freshnessBlocks: during all of it, the largest lag between the chain head and the index block a
 *    price answer reflects (its `provenance.index`), sampled every 250 ms; null when the route's
 *    answers carry no index provenance.
 * The PRO key's per-minute limit is raised with TIER_RATE_LIMITS (still checked on every call), since
 * the plan's 1,200 a minute is below 1,000 a second.
 * BENCH_REPLICA=1 (with DATABASE_URL): the route is served by an API replica (`ponder serve`, a process
 * of its own, as `npm run start:cluster` runs them) instead of the indexer's process; keys are still
 * bought from the indexer's process, over the same Postgres app store.
 * BENCH_ROUTE replaces the route (default `marketRoute`); the load: bench/loadSettings.ts
 * (BENCH_CPU_PROF_DIR: the service's processes write V8 CPU profiles there (`--cpu-prof`). BENCH_SERVICE_URL
 * and BENCH_SERVICE_MANIFEST: measure an `npm start` already running (bench/benchService.ts; not with
 * BENCH_REPLICA or BENCH_CPU_PROF_DIR, which need their own).
 * Tiny (the smoke test): BENCH_DURATION=2 BENCH_ROUNDS=1 BENCH_RATE_SECONDS=2 BENCH_WARMUP_SECONDS=0
 * BENCH_CONNECTIONS=1 BENCH_RATE_CONNECTIONS=1.
 * Last line: one JSON object, `marketFigures` in bench/benchFigures.ts.
 */

import { randomBytes } from "node:crypto";
import { createPublicClient, http } from "viem";
import { readManifest } from "../devnet/manifest";
import { type RunningService, startReplica, waitForJson } from "../test/support/startService";
import { marketFigures, printFigures } from "./benchFigures";
import { type BenchService, benchService, outsideService } from "./benchService";
import { buyKey } from "./buyKey";
import { compareWithBareHono } from "./compareWithBareHono";
import { keyOf, loadSettings } from "./loadSettings";
import { startBareHono } from "./startBareHono";

/** The route this benchmark is about. */
const marketRoute = "/v1/token/price/WETH";

const route = process.env.BENCH_ROUTE || marketRoute;
const { duration, connections, rounds, cpuProfileDir } = loadSettings;
const onReplica = process.env.BENCH_REPLICA === "1";
if (onReplica && !process.env.DATABASE_URL)
  throw new Error("BENCH_REPLICA=1 needs DATABASE_URL: a replica reads the index and the app store from Postgres");
if (outsideService && (onReplica || cpuProfileDir))
  throw new Error("BENCH_REPLICA and BENCH_CPU_PROF_DIR need a service started here: unset BENCH_SERVICE_URL");

const bare = await startBareHono();
let service: BenchService | undefined;
let replica: RunningService | undefined;
let sampler: { stop(): Promise<number | null> } | undefined;
try {
  const env = {
    ...(cpuProfileDir ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${cpuProfileDir}` } : {}),
    // One pepper for both processes, so a key bought from one is known to the other.
    ...(onReplica ? { API_KEY_PEPPER: randomBytes(32).toString("hex") } : {}),
  };
  service = await benchService(env);
  const database = service.databaseUrl;
  if (onReplica && database) {
    replica = await startReplica(service, { ...env, DATABASE_URL: database });
    await waitForJson(`${replica.baseUrl}/ready`, (status) => status === 200, 60_000, replica);
  }
  const manifest = readManifest(service.manifestPath);
  // A key for each run (warm-up, rounds, the fixed rate: `keyOf`), each bought by another devnet user.
  const sellerUrl = service.baseUrl;
  const apiKeys = await Promise.all(Array.from({ length: rounds + 2 }, (_, user) => buyKey(sellerUrl, manifest, "PRO", user)));
  const servedFrom = (replica ?? service).baseUrl;
  const keyed = (run: number) => ({ url: `${servedFrom}${route}`, headers: { "x-api-key": keyOf(apiKeys, run) } });
  const first = await fetch(keyed(0).url, { headers: keyed(0).headers });
  if (first.status !== 200) {
    throw new Error(
      `${route} answered ${first.status} ${await first.text()}${route === marketRoute ? "; until it is built, set BENCH_ROUTE (docs/operations.md)" : ""}`,
    );
  }
  sampler = sampleFreshness(keyed(0), manifest.rpcUrl);
  const compared = await compareWithBareHono(bare.url, keyed, route);
  const freshness = await sampler.stop();
  sampler = undefined;
  console.log(
    `backend: ${database ? "Postgres" : "PGlite"}${process.env.REDIS_URL ? " + Redis" : ""}, served by ${replica ? "an API replica" : "the indexer's process"}; ${connections} connections, ${duration} s runs, ${rounds} rounds (medians)`,
  );
  printFigures(marketFigures, {
    ...compared,
    freshnessBlocks: freshness,
    route,
    backend: database ? "postgres" : "pglite",
    servedBy: replica ? "replica" : "indexer",
    rateLimits: process.env.REDIS_URL ? "redis" : "memory",
  });
} finally {
  await sampler?.stop();
  await replica?.stop();
  await service?.stop();
  await bare.stop();
}

/**
 * Every 250 ms: the chain head, then one price answer; the lag is the larger of the answer's own
 * `provenance.index.lagBlocks` and the head read before it minus the index block it reflects.
 * `stop` resolves with the largest lag seen, or null when no answer carried index provenance.
 */
function sampleFreshness(target: { url: string; headers: Record<string, string> }, rpcUrl: string) {
  const chain = createPublicClient({ transport: http(rpcUrl) });
  let largest: number | null = null;
  let running = true;
  const loop = (async () => {
    while (running) {
      const head = Number(await chain.getBlockNumber({ cacheTime: 0 }));
      const res = await fetch(target.url, { headers: target.headers });
      const body = (await res.json()) as { provenance?: { index?: { headBlock: number; lagBlocks: number } | null } };
      const index = res.status === 200 ? body.provenance?.index : undefined;
      if (index) largest = Math.max(largest ?? 0, index.lagBlocks, head - index.headBlock);
      await new Promise((r) => setTimeout(r, 250));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return largest;
    },
  };
}
