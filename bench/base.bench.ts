/**
 * Base's scale, simulated (issue 37, item 5): the devnet seeded like Base (its pools at CREATE2 addresses,
 * found by the indexer's derivation), blocks every BENCH_BLOCK_SECONDS (2, Base's), and the traffic
 * generator at Base's rates (devnet/trafficBaseRates.ts, each rate from a public source) from before the
 * service starts to the end, both in a process of their own (bench/baseDevnet.ts). The service as deployed: `ponder start` (the indexer, with the API in its
 * process) reading the chain through a counting RPC proxy (test/support/rpcProxy.ts); on Postgres
 * (DATABASE_URL: a throwaway database of that server) an API replica (`ponder serve`, through a proxy of its
 * own) serves the price route, on PGlite the indexer's process does. After start-up, for BENCH_SECONDS
 * (600) it measures:
 *  - lagBlocksMax, lagBlocksP99: the chain's head minus the indexer's block (its `/status`), every 250 ms;
 *  - p99MsAt1000rps, ratioVsBareHono: `GET /v1/token/price/WETH` with PRO keys against bare Hono, in this run
 *    (bench/compareWithBareHono.ts, its load from bench/loadSettings.ts), at the start of the window;
 *  - dbGrowthMbPerDay: the database's growth over the window (Ponder's sync cache, the index and the app
 *    store; PGlite: its folders) per 43,200 blocks, a day of Base;
 *  - rssMb: the largest sum of the service's resident sets (indexer, replica), sampled every 5 s;
 *  - RPC requests by method per 43,200 blocks, for each process, from the proxies.
 * startupSeconds: from `ponder start` until its `/ready` is 200, the backfill of the full candidate set done
 * (every symbol's price is then checked to answer 200). The rates: BENCH_SWAPS_PER_BLOCK,
 * BENCH_TRANSFERS_PER_BLOCK, BENCH_PAYMENTS_PER_BLOCK (defaults: `baseRates`). Tiny (the smoke test):
 * BENCH_SECONDS=3 BENCH_BLOCK_SECONDS=1 BENCH_SWAPS_PER_BLOCK=2 BENCH_TRANSFERS_PER_BLOCK=2 and the tiny load.
 * BENCH_CPU_PROF_DIR: the service's processes (indexer, replica) write V8 CPU profiles there (`--cpu-prof`).
 * Prints the figures, then, once every process has stopped, as its last line one JSON object (`baseFigures`
 * in bench/benchFigures.ts).
 */

import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { createPublicClient, http } from "viem";
import type { z } from "zod";
import { loadConfig } from "../api/config";
import { marketSymbols } from "../api/market/marketSymbols";
import { freePort } from "../devnet/anvil";
import { type Manifest, readManifest, writeManifest } from "../devnet/manifest";
import { baseRates } from "../devnet/trafficBaseRates";
import { spawnPonder, stopPonder } from "../scripts/ponderProcess";
import { createThrowawayDatabase } from "../test/support/postgres";
import { type RpcProxy, startRpcProxy } from "../test/support/rpcProxy";
import { type RunningService, startReplica, waitForJson } from "../test/support/startService";
import { baseFigures, printFigures } from "./benchFigures";
import { buyKey } from "./buyKey";
import { compareWithBareHono } from "./compareWithBareHono";
import { countBlockActivity } from "./countBlockActivity";
import { databaseBytes, type ServiceStorage, schemaBytes } from "./databaseBytes";
import { indexLag } from "./indexLag";
import { keyOf, loadSettings } from "./loadSettings";
import { percentile } from "./percentile";
import { pidListeningOn } from "./processCpu";
import { type ProcessSizes, residentSetSizes } from "./residentSetSizes";
import { startBareHono } from "./startBareHono";

const route = "/v1/token/price/WETH";
/** A day of Base: 43,200 blocks of 2 s, whatever the devnet's block time. */
const blocksPerDay = 43_200;
const seconds = Number(process.env.BENCH_SECONDS ?? 600);
const blockSeconds = Number(process.env.BENCH_BLOCK_SECONDS ?? 2);
const rates = {
  ...baseRates,
  swapsPerBlock: Number(process.env.BENCH_SWAPS_PER_BLOCK ?? baseRates.swapsPerBlock),
  transfersPerBlock: Number(process.env.BENCH_TRANSFERS_PER_BLOCK ?? baseRates.transfersPerBlock),
  paymentsPerBlock: Number(process.env.BENCH_PAYMENTS_PER_BLOCK ?? baseRates.paymentsPerBlock),
};
const schema = process.env.DATABASE_SCHEMA || "svc_index";
const root = resolve(import.meta.dirname, "..");

const work = mkdtempSync(join(tmpdir(), "svc-bench-base-"));
const stops: (() => Promise<unknown>)[] = [async () => rmSync(work, { recursive: true, force: true })];
const stopAll = async () => {
  for (const stop of stops.splice(0).reverse()) await stop().catch((error) => console.error(`cleanup: ${error}`));
};
process.once("SIGINT", () => void stopAll().finally(() => process.exit(1)));
let figures: z.infer<typeof baseFigures> | undefined;
try {
  const manifest = await startBaseDevnet(join(work, "manifest.json"));
  const chain = createPublicClient({ transport: http(manifest.rpcUrl) });

  // Each process reads the chain through a proxy of its own, which counts its requests by method.
  const proxied = async (name: string) => {
    const proxy = await startRpcProxy(manifest.rpcUrl);
    stops.push(proxy.stop);
    const manifestPath = join(work, `${name}.json`);
    writeManifest({ ...manifest, rpcUrl: proxy.url }, manifestPath);
    return { proxy, manifestPath };
  };
  const indexerChain = await proxied("indexer");
  const storage = await serviceStorage();
  const pepper = randomBytes(32).toString("hex");
  const { cpuProfileDir } = loadSettings;
  const serviceEnv = {
    ...storage.env,
    ...(cpuProfileDir ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${cpuProfileDir}` } : {}),
    API_KEY_PEPPER: pepper,
    // 100,000 a second: never reached, yet every call is counted (the plan's 1,200 a minute is below the load).
    TIER_RATE_LIMITS: "PRO=6000000",
  };
  const [port, indexerPort] = [await freePort(), await freePort()];
  const started = Date.now();
  const indexer: ChildProcess = spawnPonder(
    "start",
    schema,
    // The devnet's default old-space cap would be too small for Base's load: only PONDER_HEAP_MB sets one here.
    {
      oldSpaceMb: process.env.PONDER_HEAP_MB ? Number(process.env.PONDER_HEAP_MB) : undefined,
      semiSpaceMb: loadConfig({ ...process.env, ...serviceEnv }).ponderSemiSpaceMb,
    },
    {
      ...process.env,
      ...serviceEnv,
      DEVNET_MANIFEST: indexerChain.manifestPath,
      PORT: String(port),
      INDEXER_PORT: String(indexerPort),
      PONDER_LOG_LEVEL: process.env.PONDER_LOG_LEVEL ?? "warn",
    },
  );
  stops.push(() => stopPonder(indexer));
  const indexerUrl = `http://127.0.0.1:${port}`;
  await waitForJson(`${indexerUrl}/ready`, (status) => status === 200, 600_000);
  const startupSeconds = Number(((Date.now() - started) / 1000).toFixed(1));
  console.log(`start-up: ${startupSeconds} s from \`ponder start\` to /ready (backfill of the full candidate set done)`);

  let replica: (RunningService & { chain: RpcProxy }) | undefined;
  if (storage.storage.kind === "postgres") {
    const replicaChain = await proxied("replica");
    const running = await startReplica({ manifestPath: replicaChain.manifestPath }, serviceEnv);
    stops.push(running.stop);
    await waitForJson(`${running.baseUrl}/ready`, (status) => status === 200, 120_000, running);
    replica = { ...running, chain: replicaChain.proxy };
  }
  const { rounds } = loadSettings;
  const apiKeys = await Promise.all(Array.from({ length: rounds + 2 }, (_, user) => buyKey(indexerUrl, manifest, "PRO", user)));
  const servedFrom = replica?.baseUrl ?? indexerUrl;
  for (const symbol of marketSymbols) {
    const res = await fetch(`${servedFrom}/v1/token/price/${symbol}`, { headers: { "x-api-key": keyOf(apiKeys, 0) } });
    const body = (await res.json()) as { poolCount?: number };
    if (res.status !== 200) throw new Error(`the price of ${symbol} answered ${res.status}: ${JSON.stringify(body)}`);
    console.log(`${symbol}: priced from ${body.poolCount} pools`);
  }

  // The window: everything from here on is per block of it.
  const pids: Record<string, number> = { indexer: indexer.pid ?? 0 };
  const replicaPid = replica && pidListeningOn(Number(new URL(replica.baseUrl).port));
  if (replicaPid) pids.replica = replicaPid;
  const windowStart = {
    at: Date.now(),
    block: await chain.getBlockNumber({ cacheTime: 0 }),
    bytes: await databaseBytes(storage.storage),
    schemas: await schemaBytes(storage.storage),
  };
  const countsAtStart = { indexer: await indexerChain.proxy.counts(), replica: (await replica?.chain.counts()) ?? {} };
  console.log(
    `RPC requests of the start-up (the indexer's process, ${windowStart.block} blocks): ${JSON.stringify(countsAtStart.indexer)}`,
  );
  const lags: number[] = [];
  let largestRss: ProcessSizes = residentSetSizes(pids);
  let sampling = true;
  const samplers = Promise.all([
    (async () => {
      while (sampling) {
        lags.push(await indexLag(chain, `http://127.0.0.1:${indexerPort}/status`));
        await sleep(250);
      }
    })(),
    (async () => {
      while (sampling) {
        const sizes = residentSetSizes(pids);
        if ((sizes.total ?? 0) > (largestRss.total ?? 0)) largestRss = sizes;
        await sleep(5_000);
      }
    })(),
  ]);
  const bare = await startBareHono();
  stops.push(bare.stop);
  const compared = await compareWithBareHono(
    bare.url,
    (run) => ({ url: `${servedFrom}${route}`, headers: { "x-api-key": keyOf(apiKeys, run) } }),
    route,
  );
  const left = windowStart.at + seconds * 1000 - Date.now();
  if (left > 0) await sleep(left);
  sampling = false;
  await samplers;
  const windowEnd = {
    block: await chain.getBlockNumber({ cacheTime: 0 }),
    bytes: await databaseBytes(storage.storage),
    schemas: await schemaBytes(storage.storage),
  };
  const blocks = Math.max(1, Number(windowEnd.block - windowStart.block));
  const mbPerDay = (bytes: number) => Math.round((bytes / 1_048_576 / blocks) * blocksPerDay);
  const perDay = (end: Record<string, number>, start: Record<string, number>) =>
    Object.fromEntries(
      Object.entries(end)
        .map(([method, n]) => [method, Math.round(((n - (start[method] ?? 0)) / blocks) * blocksPerDay)] as const)
        .filter(([, n]) => n > 0),
    );
  const rpcRequestsPerDay = {
    indexer: perDay(await indexerChain.proxy.counts(), countsAtStart.indexer),
    replica: replica ? perDay(await replica.chain.counts(), countsAtStart.replica) : {},
  };
  const carried = await countBlockActivity(chain, manifest, windowStart.block + 1n, windowEnd.block);
  const loadAverage = loadavg().map((n) => Number(n.toFixed(2)));
  console.log(`window: ${blocks} blocks of ${blockSeconds} s; a block carried ${JSON.stringify(carried)}`);
  const lagCounts = new Map<number, number>();
  for (const lag of lags) lagCounts.set(lag, (lagCounts.get(lag) ?? 0) + 1);
  console.log(`lag samples by blocks behind: ${[...lagCounts].map(([lag, n]) => `${lag}: ${n}`).join(", ")}`);
  console.log(`RPC requests per day of Base, by process and method: ${JSON.stringify(rpcRequestsPerDay)}`);
  console.log(`resident sets at their largest (MB): ${JSON.stringify(largestRss)}; load average ${loadAverage.join(" ")}`);
  figures = {
    lagBlocksMax: Math.max(...lags),
    lagBlocksP99: percentile(lags, 99),
    p99MsAt1000rps: compared.p99MsAt1000rps,
    ratioVsBareHono: compared.ratioVsBareHono,
    startupSeconds,
    dbGrowthMbPerDay: mbPerDay(windowEnd.bytes - windowStart.bytes),
    dbGrowthMbPerDayBySchema: Object.fromEntries(
      Object.entries(windowEnd.schemas).map(([schema, bytes]) => [schema, mbPerDay(bytes - (windowStart.schemas[schema] ?? 0))]),
    ),
    rssMb: largestRss.total ?? 0,
    backend: storage.storage.kind,
    servedBy: replica ? "replica" : "indexer",
    blockSeconds,
    blocks,
    carried,
    rpcRequestsPerDay,
    rpcRequestsAtStartup: countsAtStart.indexer,
    rssByProcessMb: largestRss,
    bareHonoP99MsAt1000rps: compared.bareHonoP99MsAt1000rps,
    bareHonoRps: compared.bareHonoRps,
    routeRps: compared.routeRps,
    loadAverage,
  };
} finally {
  await stopAll();
}
// Printed once every process has stopped: nothing of theirs comes after it.
if (figures) printFigures(baseFigures, figures);

/** bench/baseDevnet.ts in a process of its own, stopped with the rest; resolves with its manifest once its traffic runs. */
async function startBaseDevnet(manifestPath: string): Promise<Manifest> {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", join(root, "bench", "baseDevnet.ts"), manifestPath, String(blockSeconds), JSON.stringify(rates)],
    {
      cwd: root,
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  stops.push(
    () =>
      new Promise((done) => {
        if (child.exitCode !== null || child.signalCode !== null) return done(undefined);
        child.once("exit", done);
        child.kill("SIGINT");
        setTimeout(() => child.kill("SIGKILL"), 15_000).unref();
      }),
  );
  await new Promise<void>((ready, fail) => {
    child.stdout?.on("data", (d: Buffer) => d.toString().includes("ready") && ready());
    child.once("exit", (code) => fail(new Error(`the devnet exited with ${code}`)));
  });
  return readManifest(manifestPath);
}

/** Postgres (a throwaway database of DATABASE_URL's server) or PGlite folders of this run, and the environment naming it. */
async function serviceStorage(): Promise<{ storage: ServiceStorage; env: Record<string, string> }> {
  if (process.env.DATABASE_URL) {
    const database = await createThrowawayDatabase(process.env.DATABASE_URL);
    stops.push(database.drop);
    return { storage: { kind: "postgres", url: database.url }, env: { DATABASE_URL: database.url } };
  }
  const [index, app] = [join(work, "pglite"), join(work, "app")];
  mkdirSync(index, { recursive: true });
  return { storage: { kind: "pglite", directories: [index, app] }, env: { DATABASE_URL: "", PGLITE_DIR: index, APP_PGLITE_DIR: app } };
}
