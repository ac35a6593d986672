import { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createWorkBudget } from "../../api/access/createWorkBudget";
import { createApp } from "../../api/app";
import { createDissectionCache } from "../../api/capability/createDissectionCache";
import { createObservationCache } from "../../api/capability/createObservationCache";
import type { IndexDb } from "../../api/index/indexDb";
import { mine } from "../access/support";
import { testAccessServices, viaTestProxy } from "../support/access";
import { testAppParameters } from "../support/app";
import { devnetProvider, testManifest } from "../support/devnet";
import { type RpcProxy, startRpcProxy } from "../support/rpcProxy";

const manifest = testManifest();
const pglite = new PGlite();
afterAll(() => pglite.close());
const indexDb = drizzle(pglite) as unknown as IndexDb;
const heavy = manifest.contracts.heavyFacetDiamond as string;
/** 500 reads a minute: two heavy-facet Diamond observations (about 185 reads each) fit, a third spends it. */
const readsPerMinute = 500;

describe("the demo audit's per-client work budget (DEMO_RPC_READS_PER_MINUTE)", () => {
  const dissectionCache = createDissectionCache();
  const deps = testAppParameters(manifest, indexDb, testAccessServices(manifest, indexDb, { clientIpHeader: "x-forwarded-for" }));
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
  /** The demo, asked again when the devnet did not answer in time (503 on a loaded machine: a read timed out). */
  const answeredFrom = async (ip: string) => {
    for (let attempt = 1; ; attempt += 1) {
      const res = await demoFrom(ip);
      if (res.status !== 503 || attempt === 3) return res;
    }
  };

  test("behavior: the same code at a new block is read again but not dissected again", async () => {
    // The sample Diamond (full evidence: its reads are listed) at one block, then at the next.
    const audit = async (ip: string) => {
      const res = await app.request(`/v1/demo/audit/${manifest.contracts.diamond}`, { headers: { "x-forwarded-for": ip } }, viaTestProxy);
      expect(res.status, await res.clone().text()).toBe(200);
      return (await res.json()) as {
        observationBlock: { blockNumber: number };
        rpcObservation: { failedReadCount: number; observationReused: boolean };
      };
    };
    const first = await audit("198.51.100.10");
    expect(first.rpcObservation.failedReadCount).toBe(0);
    const made = dissectionCache.dissections();
    expect(made).toBeGreaterThan(1);
    await mine(manifest, 1);
    const second = await audit("198.51.100.11");
    expect(second.observationBlock.blockNumber).toBeGreaterThan(first.observationBlock.blockNumber);
    expect(second.rpcObservation).toMatchObject({ failedReadCount: 0, observationReused: false });
    expect(dissectionCache.dissections()).toBe(made);
  });

  test("error: a client repeating the heavy demo at new blocks is 429 with Retry-After once its reads are spent; another address is served", async () => {
    const statuses: number[] = [];
    let refused: Response | undefined;
    for (let n = 0; n < 8 && !refused; n += 1) {
      await mine(manifest, 1);
      const res = await demoFrom("203.0.113.50");
      statuses.push(res.status);
      if (res.status === 429) refused = res;
    }
    // A 503 (a read timed out on a loaded machine) is charged one read: it does not move the count.
    expect(statuses.filter((s) => s !== 503)).toEqual([200, 200, 200, 429]);
    expect(refused?.headers.get("retry-after")).toMatch(/^[1-9]\d*$/);
    expect(await refused?.json()).toMatchObject({ error: "RATE_LIMITED" });
    expect((await answeredFrom("203.0.113.51")).status).toBe(200);
  });
});

describe("the demo's work budget under a parallel burst from one client", () => {
  let proxy: RpcProxy;
  beforeAll(async () => {
    proxy = await startRpcProxy(manifest.rpcUrl);
  });
  afterAll(() => proxy?.stop());
  /** State-bearing reads the devnet was asked for through the proxy so far. */
  const readsSoFar = async () => {
    const counts = await proxy.counts();
    return (counts.eth_getCode ?? 0) + (counts.eth_getStorageAt ?? 0) + (counts.eth_call ?? 0);
  };
  const appOverProxy = (budget = readsPerMinute) => {
    const providers = [devnetProvider(proxy.url, "counted")];
    const deps = testAppParameters(manifest, indexDb, testAccessServices(manifest, indexDb, { clientIpHeader: "x-forwarded-for" }));
    // No observation cache: each request observes afresh, as requests for distinct heavy contracts would.
    return createApp({
      ...deps,
      capability: { ...deps.capability, providers, observationCache: undefined, workBudget: createWorkBudget({ readsPerMinute: budget }) },
    });
  };

  test("error: 10 concurrent heavy demo audits cause no more reads than the budget and one observation's", async () => {
    const app = appOverProxy();
    const demoFrom = (ip: string) => app.request(`/v1/demo/audit/${heavy}`, { headers: { "x-forwarded-for": ip } }, viaTestProxy);
    // One observation's reads, measured from another client.
    const before = await readsSoFar();
    expect((await demoFrom("192.0.2.60")).status).toBe(200);
    const oneObservation = (await readsSoFar()) - before;
    expect(oneObservation).toBeGreaterThan(100);

    const burstStart = await readsSoFar();
    const statuses = await Promise.all(Array.from({ length: 10 }, async () => (await demoFrom("192.0.2.61")).status));
    const burstReads = (await readsSoFar()) - burstStart;
    expect(burstReads).toBeLessThanOrEqual(readsPerMinute + oneObservation);
    expect(statuses).toContain(429);
    expect(statuses.every((s) => s === 200 || s === 429 || s === 503)).toBe(true);
  });

  test("error: a failed demo observation is charged the reads it made before failing, not one", async () => {
    // 20 reads a minute: a few failed observations spend it (charged one read each, twenty would pass).
    const budget = 20;
    const app = appOverProxy(budget);
    const demoFrom = (ip: string) => app.request(`/v1/demo/audit/${heavy}`, { headers: { "x-forwarded-for": ip } }, viaTestProxy);
    // The provider pins, then refuses every state-bearing read: the observation fails on its first batch.
    await proxy.setMode("refuse-state-reads");
    try {
      const before = await readsSoFar();
      const measured = await demoFrom("192.0.2.70");
      expect(measured.status).toBe(503);
      const perFailure = (await readsSoFar()) - before;
      expect(perFailure).toBeGreaterThan(1);

      const statuses: number[] = [];
      let refused: Response | undefined;
      let readsBeforeRefusal = 0;
      for (let n = 0; n < budget + 1 && !refused; n += 1) {
        const start = await readsSoFar();
        const res = await demoFrom("192.0.2.71");
        statuses.push(res.status);
        if (res.status === 429) {
          refused = res;
          // Refused before any read.
          expect((await readsSoFar()) - start).toBe(0);
        } else readsBeforeRefusal += (await readsSoFar()) - start;
      }
      // Each failure is charged what it read: the client is refused once those reads reach the budget.
      const failures = Math.ceil(budget / perFailure);
      expect(statuses.at(-1)).toBe(429);
      expect(statuses.slice(0, -1).every((s) => s === 503)).toBe(true);
      // A failure reads 10 or 11 (whether its pin was shared): admitted while under the budget, refused once at it.
      expect(readsBeforeRefusal).toBeGreaterThanOrEqual(budget);
      expect(readsBeforeRefusal - budget).toBeLessThan(perFailure + 2);
      expect(statuses.length - 1).toBeLessThanOrEqual(failures + 1);
      expect(refused?.headers.get("retry-after")).toMatch(/^[1-9]\d*$/);
      expect(await refused?.json()).toMatchObject({ error: "RATE_LIMITED" });
    } finally {
      await proxy.setMode("pass");
    }
  });
});
