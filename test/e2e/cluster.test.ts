import { afterAll, describe, expect, test } from "vitest";
import type { StatusReport } from "../../api/health/StatusReport";
import { buyKey } from "../../bench/buyKey";
import { readManifest } from "../../devnet/manifest";
import { createThrowawayDatabase } from "../support/postgres";
import { type RunningService, startCluster, waitForJson } from "../support/startService";

const databaseUrl = process.env.DATABASE_URL;

describe.skipIf(!databaseUrl)("npm run start:cluster: an indexer and two API replicas on one Postgres", () => {
  let cluster: RunningService | undefined;
  let dropDatabase = async () => {};
  afterAll(async () => {
    await cluster?.stop();
    await dropDatabase();
  });

  test("behavior: a key bought through one replica is served and charged by every process, from one index, under one public origin", async () => {
    const db = await createThrowawayDatabase(databaseUrl ?? "");
    dropDatabase = db.drop;
    const started = await startCluster(db.url, 2);
    cluster = started;
    const urls = [started.baseUrl, ...started.replicaUrls];
    for (const url of urls) await waitForJson(`${url}/ready`, (status) => status === 200, 180_000, started);
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
  }, 420_000);
});
