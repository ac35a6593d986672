import { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import { afterAll, describe, expect, test } from "vitest";
import { createWorkBudget } from "../../api/access/createWorkBudget";
import { createApp } from "../../api/app";
import type { AuditResponse } from "../../api/capability/AuditResponse";
import { createDissectionCache } from "../../api/capability/createDissectionCache";
import { createObservationCache } from "../../api/capability/createObservationCache";
import type { IndexDb } from "../../api/index/indexDb";
import { mine } from "../access/support";
import { testAccessDeps, viaTestProxy } from "../support/access";
import { testAppDeps } from "../support/app";
import { testManifest } from "../support/devnet";

const manifest = testManifest();
const pglite = new PGlite();
afterAll(() => pglite.close());
const indexDb = drizzle(pglite) as unknown as IndexDb;
const heavy = manifest.contracts.heavyFacetDiamond as string;
/** 500 reads a minute: two heavy-facet Diamond observations (about 185 reads each) fit, a third spends it. */
const readsPerMinute = 500;

describe("the demo audit's per-client work budget (DEMO_RPC_READS_PER_MINUTE)", () => {
  const dissectionCache = createDissectionCache();
  const deps = testAppDeps(manifest, indexDb, { access: testAccessDeps(manifest, indexDb, { clientIpHeader: "x-forwarded-for" }) });
  const app = createApp({
    ...deps,
    capability: {
      ...deps.capability,
      observationCache: createObservationCache(),
      dissectionCache,
      workBudget: createWorkBudget({ readsPerMinute }),
    },
  });
  const demoFrom = (ip: string) => app.request(`/v1/demo/audit/${heavy}`, { headers: { "x-forwarded-for": ip } }, viaTestProxy);

  test("behavior: the same code at a new block is read again but not dissected again", async () => {
    const first = await demoFrom("198.51.100.10");
    expect(first.status, await first.clone().text()).toBe(200);
    const made = dissectionCache.dissections();
    expect(made).toBeGreaterThan(1);
    await mine(manifest, 1);
    const second = await demoFrom("198.51.100.11");
    expect(second.status).toBe(200);
    const body = (await second.json()) as AuditResponse;
    expect(body.rpcObservation.observationReused).toBe(false);
    expect(body.observationBlock.blockNumber).not.toBe(((await first.json()) as AuditResponse).observationBlock.blockNumber);
    expect(dissectionCache.dissections()).toBe(made);
  });

  test("error: a client repeating the heavy demo at new blocks is 429 with Retry-After once its reads are spent; another address is served", async () => {
    const statuses: number[] = [];
    let refused: Response | undefined;
    for (let n = 0; n < 6 && !refused; n += 1) {
      await mine(manifest, 1);
      const res = await demoFrom("203.0.113.50");
      statuses.push(res.status);
      if (res.status === 429) refused = res;
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect(refused?.headers.get("retry-after")).toMatch(/^[1-9]\d*$/);
    expect(await refused?.json()).toMatchObject({ error: "RATE_LIMITED" });
    expect((await demoFrom("203.0.113.51")).status).toBe(200);
  });
});
