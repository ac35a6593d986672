import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { StatusReport } from "../../api/health/StatusReport";
import { buyKey } from "../../bench/buyKey";
import { readManifest } from "../../devnet/manifest";
import { listeningAddresses } from "../support/listeningAddresses";
import { createThrowawayDatabase } from "../support/postgres";
import { type RunningService, startCluster, startReplica, waitForJson } from "../support/startService";

const databaseUrl = process.env.DATABASE_URL;

/**
 * API replicas share the indexer's tables, so only on Postgres (PGlite cannot be shared across processes).
 * One cluster serves both tests: its start (devnet, indexer, backfill) is most of this file's time, and a
 * replica started by hand beside its indexer is what the README's `ponder serve` beside `npm start` is.
 */
describe.skipIf(!databaseUrl)("npm run start:cluster: an indexer and two API replicas on one Postgres", () => {
  let cluster: (RunningService & { replicaUrls: string[] }) | undefined;
  /** The replica the second test starts by hand, stopped before the cluster if the test could not. */
  let replica: RunningService | undefined;
  let clusterDatabaseUrl = "";
  let dropDatabase = async () => {};
  beforeAll(async () => {
    const db = await createThrowawayDatabase(databaseUrl ?? "");
    dropDatabase = db.drop;
    clusterDatabaseUrl = db.url;
    cluster = await startCluster(db.url, 2);
    for (const url of [cluster.baseUrl, ...cluster.replicaUrls])
      await waitForJson(`${url}/ready`, (status) => status === 200, 180_000, cluster);
  }, 420_000);
  afterAll(async () => {
    await replica?.stop();
    await cluster?.stop();
    await dropDatabase();
  });

  test("behavior: a key bought through one replica is served and charged by every process, from one index, under one public origin", async () => {
    const started = cluster as RunningService & { replicaUrls: string[] };
    const urls = [started.baseUrl, ...started.replicaUrls];
    const [indexer, first, second] = urls as [string, string, string];

    // Every process names the same public origin and the first replica as the fallback host.
    for (const url of urls) {
      const servers = ((await (await fetch(`${url}/v1/openapi.json`)).json()) as { servers: { url: string }[] }).servers;
      expect(servers.map((s) => s.url)).toEqual([indexer, first]);
    }
    // A devnet of the cluster's own: its users are not shared with other test files.
    const key = await buyKey(first, readManifest(started.manifestPath), "STARTER", 0);
    const remaining: number[] = [];
    for (const url of [second, indexer, first]) {
      const res = await fetch(`${url}/v1/token/price/WETH`, { headers: { "x-api-key": key } });
      expect(res.status, url).toBe(200);
      remaining.push(Number(res.headers.get("x-credits-remaining")));
    }
    // Leases are per process: each first charge of a process is a store write, so each sees the others' calls.
    expect(remaining[1]).toBeLessThan(remaining[0] ?? 0);
    expect(remaining[2]).toBeLessThan(remaining[1] ?? 0);
    const heads = await Promise.all(
      urls.map(async (url) => (await waitForJson<StatusReport>(`${url}/v1/status`, (s) => s === 200, 30_000)).body.index.headBlock ?? 0),
    );
    expect(Math.max(...heads) - Math.min(...heads)).toBeLessThanOrEqual(2);
  }, 120_000);

  test("behavior: a replica (ponder serve) started beside the indexer answers /v1 and the probes on its PORT; Ponder's routes are 404 JSON there; stopped, it closes both ports", async () => {
    const started = await startReplica(cluster as RunningService, { DATABASE_URL: clusterDatabaseUrl });
    replica = started;
    const status = await waitForJson<StatusReport>(`${started.baseUrl}/v1/status`, (s) => s === 200, 60_000, started);
    expect(status.body.index.headBlock).not.toBeNull();
    expect((await fetch(`${started.baseUrl}/health`)).status).toBe(200);
    const ready = await fetch(`${started.baseUrl}/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: "READY" });
    const metrics = await fetch(`${started.baseUrl}/metrics`);
    expect(metrics.status).toBe(404);
    expect(await metrics.json()).toEqual({ error: "NOT_FOUND", message: "no route GET /metrics" });

    expect((await fetch(`http://127.0.0.1:${started.indexerPort}/ready`)).status).toBe(200);
    const bound = listeningAddresses(started.indexerPort);
    if (bound) expect(bound).toEqual(["127.0.0.1"]);

    replica = undefined;
    expect(await started.stop()).toBe(0);
    await expect(fetch(`${started.baseUrl}/health`)).rejects.toThrow();
    await expect(fetch(`http://127.0.0.1:${started.indexerPort}/health`)).rejects.toThrow();
  }, 180_000);
});
