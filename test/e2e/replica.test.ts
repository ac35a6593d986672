import { afterAll, describe, expect, test } from "vitest";
import type { StatusReport } from "../../api/health/StatusReport";
import { listeningAddresses } from "../support/listeningAddresses";
import { createThrowawayDatabase } from "../support/postgres";
import { type RunningService, startReplica, startService, waitForJson } from "../support/startService";

const databaseUrl = process.env.DATABASE_URL;

// API replicas share the indexer's tables, so only on Postgres (PGlite cannot be shared across processes).
describe.skipIf(!databaseUrl)("an API replica (ponder serve) beside npm start (Postgres)", () => {
  let service: RunningService | undefined;
  let replica: RunningService | undefined;
  let dropDatabase = async () => {};
  afterAll(async () => {
    await replica?.stop();
    await service?.stop();
    await dropDatabase();
  });

  test("behavior: the replica's own listener answers /v1 and the probes on its PORT; Ponder's routes are 404 JSON there", async () => {
    const db = await createThrowawayDatabase(databaseUrl ?? "");
    dropDatabase = db.drop;
    service = await startService({ DATABASE_URL: db.url });
    await waitForJson(`${service.baseUrl}/ready`, (status) => status === 200, 120_000, service);
    replica = await startReplica(service, { DATABASE_URL: db.url });

    const status = await waitForJson<StatusReport>(`${replica.baseUrl}/v1/status`, (s) => s === 200, 60_000, replica);
    expect(status.body.index.headBlock).not.toBeNull();
    expect((await fetch(`${replica.baseUrl}/health`)).status).toBe(200);
    const ready = await fetch(`${replica.baseUrl}/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: "READY" });
    const metrics = await fetch(`${replica.baseUrl}/metrics`);
    expect(metrics.status).toBe(404);
    expect(await metrics.json()).toEqual({ error: "NOT_FOUND", message: "no route GET /metrics" });

    expect((await fetch(`http://127.0.0.1:${replica.indexerPort}/ready`)).status).toBe(200);
    const bound = listeningAddresses(replica.indexerPort);
    if (bound) expect(bound).toEqual(["127.0.0.1"]);

    const { baseUrl, indexerPort } = replica;
    expect(await replica.stop()).toBe(0);
    replica = undefined;
    await expect(fetch(`${baseUrl}/health`)).rejects.toThrow();
    await expect(fetch(`http://127.0.0.1:${indexerPort}/health`)).rejects.toThrow();
  }, 240_000);
});
