import { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createApp } from "../../api/app";
import type { IndexDb } from "../../api/index/indexDb";
import { readIndexReadiness } from "../../api/index/readIndexReadiness";
import { testAppParameters } from "../support/app";
import { testManifest } from "../support/devnet";

describe("the probes (/health, /ready) of createApp", () => {
  let pglite: PGlite;
  let indexDb: IndexDb;
  let app: ReturnType<typeof createApp>;
  beforeAll(() => {
    pglite = new PGlite();
    indexDb = drizzle(pglite) as unknown as IndexDb;
    app = createApp(testAppParameters(testManifest(), indexDb));
  });
  afterAll(() => pglite.close());

  test("behavior: UNAVAILABLE (503 INDEX_UNAVAILABLE) without Ponder's table, BACKFILLING (503 NOT_READY) until is_ready is 1, then READY (200)", async () => {
    expect(await readIndexReadiness(indexDb)).toBe("UNAVAILABLE");
    const unavailable = await app.request("/ready");
    expect(unavailable.status).toBe(503);
    expect(await unavailable.json()).toMatchObject({ error: "INDEX_UNAVAILABLE", retryable: true });
    // Ponder 0.17's own table and row, as `ponder start` writes them.
    await pglite.exec(`CREATE TABLE _ponder_meta (key text PRIMARY KEY, value jsonb NOT NULL)`);
    await pglite.exec(`INSERT INTO _ponder_meta VALUES ('app', '{"is_locked": 1, "is_ready": 0}')`);
    const backfilling = await app.request("/ready");
    expect(backfilling.status).toBe(503);
    expect(await backfilling.json()).toMatchObject({ error: "NOT_READY", message: expect.any(String) });
    await pglite.exec(`UPDATE _ponder_meta SET value = jsonb_set(value, '{is_ready}', to_jsonb(1))`);
    const ready = await app.request("/ready");
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: "READY" });
  });

  test("default: /health is 200 whatever the index", async () => {
    const res = await app.request("/health");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "UP" });
  });

  test("error: another method is 405 JSON with Allow", async () => {
    const res = await app.request("/health", { method: "POST" });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET, HEAD");
    expect(await res.json()).toMatchObject({ error: "METHOD_NOT_ALLOWED" });
  });
});
