import { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type IndexReadiness, readIndexReadiness } from "../../api/health/readIndexReadiness";
import type { IndexDb } from "../../api/indexDb";
import { probeRoutes } from "../../api/listener/probeRoutes";

describe("readIndexReadiness", () => {
  let pglite: PGlite;
  let indexDb: IndexDb;
  beforeAll(() => {
    pglite = new PGlite();
    indexDb = drizzle(pglite) as unknown as IndexDb;
  });
  afterAll(() => pglite.close());

  test("behavior: UNAVAILABLE without Ponder's table, BACKFILLING until is_ready is 1, then READY", async () => {
    expect(await readIndexReadiness(indexDb)).toBe("UNAVAILABLE");
    // Ponder 0.17's own table and row, as `ponder start` writes them.
    await pglite.exec(`CREATE TABLE _ponder_meta (key text PRIMARY KEY, value jsonb NOT NULL)`);
    await pglite.exec(`INSERT INTO _ponder_meta VALUES ('app', '{"is_locked": 1, "is_ready": 0}')`);
    expect(await readIndexReadiness(indexDb)).toBe("BACKFILLING");
    await pglite.exec(`UPDATE _ponder_meta SET value = jsonb_set(value, '{is_ready}', to_jsonb(1))`);
    expect(await readIndexReadiness(indexDb)).toBe("READY");
  });
});

describe("probeRoutes", () => {
  const probes = (readiness: IndexReadiness) => probeRoutes({ readiness: async () => readiness });

  test("default: /health is 200 whatever the index", async () => {
    const res = await probes("UNAVAILABLE").request("/health");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "UP" });
  });

  test("behavior: /ready is 200 once the backfill is done", async () => {
    const res = await probes("READY").request("/ready");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "READY" });
  });

  test("error: /ready is 503 in the one error shape while backfilling or when the index cannot be read", async () => {
    const backfilling = await probes("BACKFILLING").request("/ready");
    expect(backfilling.status).toBe(503);
    expect(await backfilling.json()).toEqual({ error: "NOT_READY", message: expect.any(String) });
    const unavailable = await probes("UNAVAILABLE").request("/ready");
    expect(unavailable.status).toBe(503);
    expect(await unavailable.json()).toEqual({ error: "INDEX_UNAVAILABLE", message: expect.any(String) });
  });

  test("error: another method is 405 JSON with Allow", async () => {
    const res = await probes("READY").request("/health", { method: "POST" });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET, HEAD");
    expect(await res.json()).toMatchObject({ error: "METHOD_NOT_ALLOWED" });
  });
});
