/**
 * Memory of `npm start` (issue 15): the service as a user runs it (devnet with its traffic generator,
 * PGlite, or Postgres with DATABASE_URL), a PRO key bought over HTTP, then MEMORY_SECONDS (300) of
 * steady HTTP load over the market, audit and status routes (MEMORY_RATE requests a second, 50).
 * The resident set (RSS, from /proc) of each process (`ponder`: indexer and API; `start`: the
 * launcher with the traffic generator; `anvil`) is sampled once ready, a minute later, and at the
 * end. BENCH_SERVICE_URL and BENCH_SERVICE_MANIFEST: measure an `npm start` already running
 * (bench/benchService.ts). Tiny (the smoke test): MEMORY_SECONDS=1 MEMORY_RATE=5.
 * Last line: one JSON object, sizes in MB: `memoryFigures` in bench/benchFigures.ts.
 */

import autocannon from "autocannon";
import { readManifest } from "../devnet/manifest";
import { memoryFigures, printFigures } from "./benchFigures";
import { type BenchService, benchService } from "./benchService";
import { buyKey } from "./buyKey";
import { pidListeningOn } from "./processCpu";
import { type ProcessSizes, parentPid, residentSetSizes } from "./residentSetSizes";

const seconds = Number(process.env.MEMORY_SECONDS ?? 300);
const rate = Number(process.env.MEMORY_RATE ?? 50);

let service: BenchService | undefined;
try {
  service = await benchService();
  const running = service;
  const manifest = readManifest(running.manifestPath);
  const ponderPid = pidListeningOn(Number(new URL(running.baseUrl).port));
  const anvilPid = pidListeningOn(Number(new URL(manifest.rpcUrl).port));
  if (!ponderPid || !anvilPid) throw new Error("cannot find the service's processes in /proc");
  const pids = { ponder: ponderPid, start: parentPid(ponderPid), anvil: anvilPid };
  const sample = () => residentSetSizes(pids);

  const ready = sample();
  const apiKey = await buyKey(running.baseUrl, manifest, "PRO", 0);
  const headers = { "x-api-key": apiKey };
  const contracts = Object.values(manifest.contracts);
  const requests = [
    "/v1/token/price/WETH",
    "/v1/token/price/cbBTC",
    "/v1/dex/metrics",
    "/v1/whales/signals",
    "/v1/gas/fees",
    "/v1/status",
    ...contracts.map((address) => `/v1/audit/${address}`),
  ].map((path) => ({ method: "GET" as const, path, headers }));

  let afterMinute: ProcessSizes | undefined;
  const minute = setTimeout(() => (afterMinute = sample()), 60_000);
  const load = await autocannon({ url: running.baseUrl, requests, connections: 5, overallRate: rate, duration: seconds });
  clearTimeout(minute);
  const end = sample();
  const statuses = Object.fromEntries(
    Object.entries(load.statusCodeStats as unknown as Record<string, { count: number }>).map(([code, s]) => [code, s.count]),
  );
  printFigures(memoryFigures, {
    database: running.databaseUrl ? "postgres" : "pglite",
    seconds,
    requests: load.requests.total,
    statuses,
    rssReadyMb: ready,
    rssAfterMinuteMb: afterMinute ?? null,
    rssEndMb: end,
  });
} finally {
  await service?.stop();
}
