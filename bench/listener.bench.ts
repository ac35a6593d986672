/**
 * Throughput of the public port, measured with autocannon (this process) against servers in other
 * processes, on loopback only, interleaved, each run bounded in time:
 *  (a) a bare Hono server answering a constant (its own process): the ceiling of Node + Hono here;
 *  (b) our cheapest route (`POST /v1/transaction/preflight` without a credential: its 401) through
 *      Ponder's own server, which served the public port before (now 127.0.0.1:INDEXER_PORT; same
 *      process, same app instance);
 *  (c) the same route through our own listener on PORT, inside the same `npm start`;
 *  (d) with DATABASE_URL (the whole run is then on Postgres): the same route through an API replica
 *      (`ponder serve`), a process of its own.
 * Plain script: `npm run bench:listener`. BENCH_DURATION (s, 5), BENCH_CONNECTIONS (50), BENCH_ROUNDS (3).
 * Last line: one JSON object of the medians and their ratios to (a).
 */

import { type ChildProcess, spawn } from "node:child_process";
import { join, resolve } from "node:path";
import autocannon from "autocannon";
import { freePort } from "../devnet/anvil";
import { createThrowawayDatabase } from "../test/support/postgres";
import { type RunningService, startReplica, startService, waitForJson } from "../test/support/startService";

const duration = Number(process.env.BENCH_DURATION ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const databaseUrl = process.env.DATABASE_URL || undefined;
const root = resolve(import.meta.dirname, "..");
const route = "/v1/transaction/preflight";

type Target = { name: string; url: string; method: "GET" | "POST"; expected: number };

const bare = await startBareHono();
const database = databaseUrl ? await createThrowawayDatabase(databaseUrl) : undefined;
let service: RunningService | undefined;
let replica: RunningService | undefined;
try {
  service = await startService(database ? { DATABASE_URL: database.url } : {});
  await waitForJson(`${service.baseUrl}/ready`, (status) => status === 200, 180_000, service);
  if (database) {
    replica = await startReplica(service, { DATABASE_URL: database.url });
    await waitForJson(`${replica.baseUrl}/ready`, (status) => status === 200, 60_000, replica);
  }
  const targets: Target[] = [
    { name: "bareHono", url: `${bare.url}/`, method: "GET", expected: 200 },
    { name: "ponderServer", url: `http://127.0.0.1:${service.indexerPort}${route}`, method: "POST", expected: 401 },
    { name: "ownListener", url: `${service.baseUrl}${route}`, method: "POST", expected: 401 },
    ...(replica ? [{ name: "replicaListener", url: `${replica.baseUrl}${route}`, method: "POST" as const, expected: 401 }] : []),
  ];
  for (const target of targets) await checkAnswer(target);
  for (const target of targets) await measure(target, 1); // warm-up: JIT and connection pools

  const samples = new Map(targets.map((t) => [t.name, [] as number[]]));
  for (let round = 1; round <= rounds; round++) {
    for (const target of targets) {
      const rps = await measure(target, duration);
      samples.get(target.name)?.push(rps);
      console.log(`round ${round} ${target.name.padEnd(16)} ${rps.toFixed(0).padStart(7)} req/s`);
    }
  }

  const medians = Object.fromEntries(targets.map((t) => [t.name, median(samples.get(t.name) ?? [])]));
  const ceiling = medians.bareHono ?? Number.NaN;
  console.log(
    `backend: ${database ? "Postgres" : "PGlite"}; ${connections} connections, ${duration} s per run, ${rounds} rounds (medians)`,
  );
  for (const t of targets) {
    const rps = medians[t.name] ?? Number.NaN;
    console.log(`${t.name.padEnd(16)} ${rps.toFixed(0).padStart(7)} req/s  ${(rps / ceiling).toFixed(2)} of bare Hono`);
  }
  const figure = (name: string) => (medians[name] === undefined ? undefined : Math.round(medians[name]));
  const ratio = (name: string) => (medians[name] === undefined ? undefined : Number((medians[name] / ceiling).toFixed(3)));
  console.log(
    JSON.stringify({
      backend: database ? "postgres" : "pglite",
      bareHonoRps: figure("bareHono"),
      ponderServerRps: figure("ponderServer"),
      ownListenerRps: figure("ownListener"),
      replicaListenerRps: figure("replicaListener"),
      ratioOwnVsBare: ratio("ownListener"),
      ratioPonderVsBare: ratio("ponderServer"),
      ratioReplicaVsBare: ratio("replicaListener"),
      ratioOwnVsPonder: Number(((medians.ownListener ?? Number.NaN) / (medians.ponderServer ?? Number.NaN)).toFixed(2)),
    }),
  );
} finally {
  await replica?.stop();
  await service?.stop();
  await database?.drop();
  await bare.stop();
}

/** Requests per second over one time-bounded autocannon run; throws if any answer is not the expected status. */
async function measure(target: Target, seconds: number): Promise<number> {
  const result = await autocannon({ url: target.url, method: target.method, connections, duration: seconds });
  const expectedClass = `${String(target.expected)[0]}xx` as "2xx" | "4xx";
  if (result.errors > 0 || result[expectedClass] !== result.requests.total) {
    throw new Error(
      `${target.name}: ${result.errors} errors, ${result[expectedClass]} of ${result.requests.total} answers ${expectedClass}`,
    );
  }
  return result.requests.total / result.duration;
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

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? Number.NaN) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

async function startBareHono(): Promise<{ url: string; stop(): Promise<void> }> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    process.execPath,
    [join(root, "node_modules", ".bin", "tsx"), "bench/bareHonoServer.ts", String(port)],
    {
      cwd: root,
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  await new Promise<void>((ready, fail) => {
    child.stdout?.on("data", (d: Buffer) => d.toString().includes("listening") && ready());
    child.once("exit", (code) => fail(new Error(`bare Hono server exited with ${code}`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    stop: () =>
      new Promise((done) => {
        if (child.exitCode !== null) return done();
        child.once("exit", () => done());
        child.kill("SIGINT");
      }),
  };
}
