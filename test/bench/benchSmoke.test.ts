import { afterAll, afterEach, beforeAll, describe, expect, inject, test } from "vitest";
import {
  accessFigures,
  auditFigures,
  dissectFigures,
  listenerFigures,
  marketFigures,
  memoryFigures,
  simulationFigures,
  x402Figures,
} from "../../bench/benchFigures";
import { type BenchService, benchService } from "../../bench/benchService";
import packageJson from "../../package.json";
import { benchTimeoutMs, expectFigures, ownDevnetSmokeRuns, type SmokeRun, stopRunningBench, tinyLoad } from "./smokeRun";

/**
 * The smoke runs of the benchmarks (test/bench/smokeRun.ts says what each checks) but the two that start a
 * devnet of their own. The audit reads the test run's devnet; bench:listener, bench:market, bench:memory and
 * bench:x402 share one `npm start` (bench/benchService.ts), on a throwaway database when DATABASE_URL is
 * set. DATABASE_URL and REDIS_URL, when set, reach every bench that takes them.
 */

afterEach(stopRunningBench);

describe("npm run bench:* with tiny settings: exit 0, last line the documented JSON", { timeout: benchTimeoutMs }, () => {
  // The `npm start` that bench:listener, bench:market, bench:memory and bench:x402 share, started first: it boots
  // while the benches that need none run.
  let sharedService: Promise<BenchService> | undefined;
  beforeAll(() => {
    sharedService = benchService();
    // Its failure is reported by the tests that await it.
    sharedService.catch(() => {});
  });
  afterAll(async () => {
    const service = await sharedService?.catch(() => undefined);
    await service?.stop();
  });
  /** The settings that point a service benchmark at the shared `npm start`, once it is ready. */
  const onSharedService = async () => {
    const service = await sharedService;
    if (!service) throw new Error("the shared service was never started");
    return { BENCH_SERVICE_URL: service.baseUrl, BENCH_SERVICE_MANIFEST: service.manifestPath, DATABASE_URL: service.databaseUrl ?? "" };
  };

  /** Each script's tiny settings and its schema, in the order they run (the shared service's last). */
  const smokeRuns: Record<string, SmokeRun> = {
    "bench:dissect": { env: () => ({ BENCH_WARMUP: "0", BENCH_ROUNDS: "1" }), figures: dissectFigures },
    "bench:audit": {
      env: () => ({ BENCH_WARMUP: "0", BENCH_ROUNDS: "1", BENCH_DEVNET_MANIFEST: inject("manifestPath") }),
      figures: auditFigures,
    },
    "bench:simulation": {
      env: () => ({ BENCH_WARMUP: "0", BENCH_ROUNDS: "1", BENCH_DEVNET_MANIFEST: inject("manifestPath") }),
      figures: simulationFigures,
    },
    "bench:access": { env: () => tinyLoad, figures: accessFigures },
    "bench:listener": {
      env: async () => ({ ...(await onSharedService()), BENCH_DURATION: "1", BENCH_ROUNDS: "1" }),
      figures: listenerFigures,
    },
    "bench:market": { env: async () => ({ ...(await onSharedService()), ...tinyLoad }), figures: marketFigures },
    "bench:memory": { env: async () => ({ ...(await onSharedService()), MEMORY_SECONDS: "1", MEMORY_RATE: "5" }), figures: memoryFigures },
    "bench:x402": {
      env: async () => ({
        ...(await onSharedService()),
        BENCH_CALLS: "2",
        BENCH_PAYERS: "1",
        BENCH_SECONDS: "1",
        BENCH_CLAIM_WAIT_SECONDS: "0",
      }),
      figures: x402Figures,
    },
  };

  test("every bench:* script of package.json has a smoke run here", () => {
    const scripts = Object.keys(packageJson.scripts).filter((name) => name.startsWith("bench:"));
    expect([...Object.keys(smokeRuns), ...Object.keys(ownDevnetSmokeRuns)].sort()).toEqual(scripts.sort());
  });

  for (const [script, run] of Object.entries(smokeRuns)) {
    test(script, async () => {
      await expectFigures(script, run);
    });
  }
});
