/**
 * Throughput of the public port, measured with autocannon (this process) against servers in other
 * processes, on loopback only, interleaved, each run bounded in time:
 *  (a) a bare Hono server answering a constant (its own process): the ceiling of Node + Hono here;
 *  (b) our cheapest route (`POST /v1/transaction/preflight` without a credential: its 401) through our
 *      own listener on PORT, inside `npm start` (Ponder's own server, which served it before, now keeps
 *      only its own routes on 127.0.0.1:INDEXER_PORT);
 *  (c) with DATABASE_URL (the whole run is then on Postgres): the same route through an API replica
 *      (`ponder serve`), a process of its own.
 * Beside throughput, the serving process's CPU time per request (Linux /proc), which other load on the
 * machine disturbs less; (b) includes the indexer's own work in the same process.
 * Plain script: `npm run bench:listener`. BENCH_DURATION (s, 5), BENCH_CONNECTIONS (50), BENCH_ROUNDS (3);
 * BENCH_SERVICE_URL and BENCH_SERVICE_MANIFEST: measure an `npm start` already running
 * (bench/benchService.ts). Tiny (the smoke test): BENCH_DURATION=1 BENCH_ROUNDS=1.
 * Last line: one JSON object of the medians and their ratios to (a), `listenerFigures` in bench/benchFigures.ts.
 */

import autocannon from "autocannon";
import { type RunningService, startReplica, waitForJson } from "../test/support/startService";
import { listenerFigures, printFigures } from "./benchFigures";
import { type BenchService, benchService } from "./benchService";
import { median } from "./median";
import { cpuSeconds, pidListeningOn } from "./processCpu";
import { startBareHono } from "./startBareHono";

const duration = Number(process.env.BENCH_DURATION ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const route = "/v1/transaction/preflight";

type Target = { name: string; url: string; method: "GET" | "POST"; expected: number };
type Measurement = { rps: number; cpuUsPerRequest: number | undefined };

const bare = await startBareHono();
let service: BenchService | undefined;
let replica: RunningService | undefined;
try {
  service = await benchService();
  const database = service.databaseUrl;
  if (database) {
    replica = await startReplica(service, { DATABASE_URL: database });
    await waitForJson(`${replica.baseUrl}/ready`, (status) => status === 200, 60_000, replica);
  }
  const targets: Target[] = [
    { name: "bareHono", url: `${bare.url}/`, method: "GET", expected: 200 },
    { name: "ownListener", url: `${service.baseUrl}${route}`, method: "POST", expected: 401 },
    ...(replica ? [{ name: "replicaListener", url: `${replica.baseUrl}${route}`, method: "POST" as const, expected: 401 }] : []),
  ];
  for (const target of targets) await checkAnswer(target);
  for (const target of targets) await measure(target, 1); // warm-up: JIT and connection pools

  const samples = new Map<string, Measurement[]>(targets.map((t) => [t.name, []]));
  for (let round = 1; round <= rounds; round++) {
    for (const target of targets) {
      const m = await measure(target, duration);
      samples.get(target.name)?.push(m);
      console.log(`round ${round} ${target.name.padEnd(16)} ${m.rps.toFixed(0).padStart(7)} req/s  ${cpuText(m.cpuUsPerRequest)}`);
    }
  }

  const medianOf = (name: string, pick: (m: Measurement) => number | undefined) => {
    const values = (samples.get(name) ?? []).map(pick).filter((v): v is number => v !== undefined);
    return values.length > 0 ? median(values) : undefined;
  };
  const rps = Object.fromEntries(targets.map((t) => [t.name, medianOf(t.name, (m) => m.rps)]));
  const cpu = Object.fromEntries(targets.map((t) => [t.name, medianOf(t.name, (m) => m.cpuUsPerRequest)]));
  const ceiling = rps.bareHono ?? Number.NaN;
  const ratio = (name: string) => (rps[name] === undefined ? undefined : Number((rps[name] / ceiling).toFixed(3)));
  console.log(
    `backend: ${database ? "Postgres" : "PGlite"}; ${connections} connections, ${duration} s per run, ${rounds} rounds (medians)`,
  );
  for (const t of targets) {
    console.log(
      `${t.name.padEnd(16)} ${(rps[t.name] ?? 0).toFixed(0).padStart(7)} req/s  ${ratio(t.name)} of bare Hono  ${cpuText(cpu[t.name])}`,
    );
  }
  const rounded = (value: number | undefined) => (value === undefined ? undefined : Math.round(value));
  printFigures(listenerFigures, {
    backend: database ? "postgres" : "pglite",
    bareHonoRps: Math.round(ceiling),
    ownListenerRps: Math.round(rps.ownListener ?? Number.NaN),
    replicaListenerRps: rounded(rps.replicaListener),
    ratioOwnVsBare: ratio("ownListener") ?? Number.NaN,
    ratioReplicaVsBare: ratio("replicaListener"),
    cpuUsPerRequest: Object.fromEntries(targets.map((t) => [t.name, rounded(cpu[t.name]) ?? null])),
  });
} finally {
  await replica?.stop();
  await service?.stop();
  await bare.stop();
}

/** One time-bounded autocannon run; throws if any answer is not the expected status. */
async function measure(target: Target, seconds: number): Promise<Measurement> {
  const pid = pidListeningOn(Number(new URL(target.url).port));
  const cpuBefore = pid === undefined ? undefined : cpuSeconds(pid);
  const result = await autocannon({ url: target.url, method: target.method, connections, duration: seconds });
  const cpuUsed = pid === undefined || cpuBefore === undefined ? undefined : cpuSeconds(pid) - cpuBefore;
  const expectedClass = `${String(target.expected)[0]}xx` as "2xx" | "4xx";
  if (result.errors > 0 || result[expectedClass] !== result.requests.total) {
    throw new Error(
      `${target.name}: ${result.errors} errors, ${result[expectedClass]} of ${result.requests.total} answers ${expectedClass}`,
    );
  }
  return {
    rps: result.requests.total / result.duration,
    cpuUsPerRequest: cpuUsed === undefined ? undefined : (cpuUsed * 1e6) / result.requests.total,
  };
}

/** One request first: the route answers what the run counts (our 401 in the one error shape). */
async function checkAnswer(target: Target) {
  const res = await fetch(target.url, { method: target.method });
  if (res.status !== target.expected) throw new Error(`${target.name}: ${res.status}, expected ${target.expected}`);
  if (target.expected === 401) {
    const body = (await res.json()) as { error?: string };
    if (body.error !== "CREDENTIAL_REQUIRED") throw new Error(`${target.name}: ${JSON.stringify(body)}`);
  }
}

function cpuText(us: number | undefined): string {
  return us === undefined ? "" : `${us.toFixed(0).padStart(4)} µs CPU/request`;
}
