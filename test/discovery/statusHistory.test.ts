import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createApp } from "../../api/app";
import { checkStatus } from "../../api/health/checkStatus";
import { createHealthSampler } from "../../api/health/createHealthSampler";
import { minimumCoverage, requiredSamples } from "../../api/health/readAvailability";
import type { StatusHistory } from "../../api/health/StatusHistory";
import { type Backend, backendNames, openBackend } from "../access/support";
import { testAppParameters, testDiscoveryParameters } from "../support/app";
import { testManifest } from "../support/devnet";

const manifest = testManifest();
const hourMs = 3_600_000;
const intervalSeconds = 3600;
const dead = [{ name: "down", url: "http://127.0.0.1:1", trusted: true }];

describe.each(backendNames)("the status history on %s", (name) => {
  let backend: Backend;
  let now = Date.parse("2026-03-01T00:00:00.000Z");
  const clock = () => new Date(now);
  let app: ReturnType<typeof createApp>;
  let sampleUp: () => Promise<void>;
  let sampleDown: () => Promise<void>;

  beforeAll(async () => {
    backend = await openBackend(name);
    const deps = testAppParameters(manifest, backend.indexDb, {
      discovery: testDiscoveryParameters(backend.store, { healthSampleIntervalSeconds: intervalSeconds, clock }),
    });
    const status = { ...deps.status, appStore: backend.store };
    app = createApp({ ...deps, status });
    const sampler = (check: typeof status) =>
      createHealthSampler({ db: backend.store.db, check: () => checkStatus(check), gatewayConfigured: false, intervalSeconds, clock });
    sampleUp = sampler(status).sampleOnce;
    sampleDown = sampler({ ...status, providers: dead }).sampleOnce;
  });
  afterAll(() => backend.close());

  const history = async () => {
    const res = await app.request("/v1/status");
    expect(res.status).toBe(200);
    return ((await res.json()) as { history: StatusHistory }).history;
  };
  const windowOf = (h: StatusHistory, series: string, window: string) =>
    h.series.find((s) => s.series === series)?.windows.find((w) => w.window === window);

  test("behavior: a window states its availability only once it holds 90% of its possible samples", async () => {
    expect(requiredSamples("24h", intervalSeconds)).toBe(Math.ceil(minimumCoverage * 24));
    const empty = await history();
    expect(empty.sampleIntervalSeconds).toBe(intervalSeconds);
    expect(windowOf(empty, "legacyCore", "24h")).toMatchObject({
      status: "INSUFFICIENT_SAMPLES",
      availabilityPercent: null,
      samples: 0,
      earliestMeasuredAt: null,
    });
    expect(empty.samplingSince).toBeNull();
    expect(empty.series.map((s) => s.latestState)).toEqual([null, null, null, null]);
    const needed = requiredSamples("24h", intervalSeconds);
    const first = now;
    for (let i = 0; i < needed - 1; i++) {
      await sampleUp();
      now += hourMs;
    }
    const fresh = await history();
    expect(windowOf(fresh, "legacyCore", "24h")).toMatchObject({
      status: "INSUFFICIENT_SAMPLES",
      availabilityPercent: null,
      samples: needed - 1,
      requiredSamples: needed,
      // One sample missing: measured one interval from now, if it is taken.
      earliestMeasuredAt: new Date(now + intervalSeconds * 1000).toISOString(),
    });
    expect(windowOf(fresh, "legacyCore", "30d")?.earliestMeasuredAt).toBe(
      new Date(now + (requiredSamples("30d", intervalSeconds) - needed + 1) * intervalSeconds * 1000).toISOString(),
    );
    // Sampling started at the first sample; the unconfigured gateway will never be measured.
    expect(fresh.samplingSince).toBe(new Date(first).toISOString());
    expect(fresh.series.find((s) => s.series === "legacyCore")?.latestState).toBe("UP");
    expect(fresh.series.find((s) => s.series === "gateway")?.latestState).toBe("NOT_CONFIGURED");
    expect(windowOf(fresh, "gateway", "24h")?.earliestMeasuredAt).toBeNull();
    await sampleDown();
    const measured = await history();
    expect(windowOf(measured, "legacyCore", "24h")).toMatchObject({
      status: "MEASURED",
      samples: needed,
      availabilityPercent: Math.round(((needed - 1) / needed) * 100_000) / 1000,
      earliestMeasuredAt: null,
    });
    expect(measured.series.find((s) => s.series === "legacyCore")?.latestState).toBe("DOWN");
    // The longer windows still lack samples; an unconfigured series (no gateway here) never has any.
    expect(windowOf(measured, "legacyCore", "7d")).toMatchObject({ status: "INSUFFICIENT_SAMPLES", samples: needed });
    expect(windowOf(measured, "gateway", "24h")).toMatchObject({ status: "INSUFFICIENT_SAMPLES", samples: 0 });
  });

  test("behavior: a second sample of the same interval (another replica) writes nothing", async () => {
    const before = windowOf(await history(), "legacyCore", "24h")?.samples;
    now += hourMs;
    await sampleUp();
    await sampleUp();
    expect(windowOf(await history(), "legacyCore", "24h")?.samples).toBe((before ?? 0) + 1);
  });

  test("behavior: a week of samples measures 7 d from the hourly rollups, while raw samples stay bounded to 24 h", async () => {
    const needed = requiredSamples("7d", intervalSeconds);
    for (let i = 0; i < needed; i++) {
      now += hourMs;
      await sampleUp();
    }
    const h = await history();
    expect(windowOf(h, "legacyCore", "7d")).toMatchObject({ status: "MEASURED" });
    const week = windowOf(h, "legacyCore", "7d");
    expect(week?.availabilityPercent).toBeLessThan(100);
    // The one DOWN sample left the last 24 h: that window is all UP now.
    expect(windowOf(h, "legacyCore", "24h")).toMatchObject({ status: "MEASURED", availabilityPercent: 100 });
    expect(windowOf(h, "legacyCore", "30d")).toMatchObject({ status: "INSUFFICIENT_SAMPLES" });
    const [raw] = (await backend.sql("SELECT count(*)::int AS n FROM app.health_sample")) as { n: number }[];
    expect(raw?.n).toBeLessThanOrEqual(4 * 25);
    const [rollups] = (await backend.sql("SELECT count(*)::int AS n FROM app.health_rollup")) as { n: number }[];
    expect(rollups?.n).toBeGreaterThan(4 * 24 * 6);
  }, 120_000);

  test("behavior: rollups older than 30 days are pruned", async () => {
    now += 40 * 24 * hourMs;
    await sampleUp();
    const [rollups] = (await backend.sql("SELECT count(*)::int AS n FROM app.health_rollup")) as { n: number }[];
    expect(rollups?.n).toBe(4);
    const restarted = await history();
    expect(windowOf(restarted, "legacyCore", "7d")).toMatchObject({ status: "INSUFFICIENT_SAMPLES", samples: 1 });
    // Only the newest hour is left: sampling is counted from it (to the hour).
    expect(restarted.samplingSince).toBe(new Date(Math.floor(now / hourMs) * hourMs).toISOString());
  });
});
