/**
 * The access path of a metered call, stage by stage, in this process over a real app store (PGlite in a
 * temporary folder, or a throwaway Postgres database when DATABASE_URL is set; Redis rate limits when
 * REDIS_URL is): key lookup, rate limit, credit check (before the work), credit charge (after it), and
 * a whole keyed route (`GET /v1/keys/self` through createApp: lookup, rate limit, a store read of the
 * balance, its handler and answer). Each stage runs for
 * BENCH_DURATION seconds (2) with BENCH_CONCURRENCY calls in flight (50), as a listener under load would
 * have them. Plain script: `npx tsx bench/accessStages.bench.ts`. Last line: one JSON object of each
 * stage's calls per second and p99 latency.
 */

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import { connectRedis } from "../api/access/connectRedis";
import { createAccessServices } from "../api/access/createAccessServices";
import { createRateLimits } from "../api/access/createRateLimits";
import { createApp } from "../api/app";
import { createObservationCache } from "../api/capability/createObservationCache";
import type { IndexDb } from "../api/index/indexDb";
import { type AppStore, createAppStore } from "../api/store/createAppStore";
import { baseDexDeployments } from "../base/baseDexDeployments";
import { unlimitedAbuse, unlimitedRates } from "../test/support/access";
import { testDiscoveryParameters, testMarketParameters } from "../test/support/app";
import { testOrigins } from "../test/support/keyClaims";
import { createThrowawayDatabase } from "../test/support/postgres";
import { storeProKey } from "./storeProKey";

const duration = Number(process.env.BENCH_DURATION ?? 2);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 50);
const databaseUrl = process.env.DATABASE_URL || undefined;
const redisUrl = process.env.REDIS_URL || undefined;
const pepper = "bench-pepper-0123456789abcdef0123456789abcdef";

type StageFigures = { callsPerSecond: number; p50Ms: number; p99Ms: number };

/** `call` repeated with `concurrency` in flight for `duration` seconds: throughput and latency percentiles. */
async function run(call: () => Promise<unknown>): Promise<StageFigures> {
  const latencies: number[] = [];
  const started = performance.now();
  const until = started + duration * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < until) {
        const t = performance.now();
        await call();
        latencies.push(performance.now() - t);
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (q: number) => Number((latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0).toFixed(2));
  return { callsPerSecond: Math.round(latencies.length / elapsed), p50Ms: at(0.5), p99Ms: at(0.99) };
}

const dir = mkdtempSync(join(tmpdir(), "svc-stages-"));
const database = databaseUrl ? await createThrowawayDatabase(databaseUrl) : undefined;
const store: AppStore = createAppStore(
  database ? { kind: "postgres", url: database.url } : { kind: "pglite", directory: join(dir, "app") },
);
const index = new PGlite();
const redis = redisUrl ? connectRedis(redisUrl) : undefined;
try {
  await store.ready;
  const indexDb = drizzle(index) as unknown as IndexDb;
  // No chain is read on this path: the one provider answers nothing.
  const providers = [{ name: "none", url: "http://127.0.0.1:1", trusted: true }];
  const { access, keyRoutes } = createAccessServices({
    store,
    origins: testOrigins,
    pepper,
    environment: "test",
    chainId: 8453,
    providers,
    indexDb,
    payTo: null,
    ethQuote: { weiPerUsd: async () => null },
    rateLimits: createRateLimits({ redis, perMinute: unlimitedRates }),
    limits: unlimitedAbuse,
  });
  const { raw, key } = await storeProKey(store.db, pepper);
  const app = createApp({
    status: {
      indexDb,
      appStore: store,
      payoutAddress: null,
      providers,
      chainId: 8453,
      source: "devnet",
      maxIndexLagBlocks: 5,
      x402Facilitator: null,
    },
    capability: { providers, chainId: 8453, samples: [], observationCache: createObservationCache() },
    market: testMarketParameters(providers, indexDb, baseDexDeployments),
    access,
    keyRoutes,
    x402: null,
    discovery: testDiscoveryParameters(store),
  });

  const stages: Record<string, () => Promise<unknown>> = {
    keyLookup: () => access.keys.authenticate(raw),
    // A budget of its own: this stage alone spends more than a minute's budget of the key.
    rateLimit: () => access.rateLimits.consume("PRO", "bench-rate-limit-stage"),
    // The charge first: in steady state a busy key's check finds this replica's lease.
    creditCharge: () => access.credits.charge(key, 1),
    creditCheck: () => access.credits.balanceFor(key, 1),
    keySelfRoute: async () => {
      const res = await app.request("/v1/keys/self", { headers: { "x-api-key": raw } });
      if (res.status !== 200) throw new Error(`keys/self answered ${res.status}: ${await res.text()}`);
      await res.arrayBuffer();
    },
  };
  for (const call of Object.values(stages)) await call(); // warm-up: JIT, prepared plans
  const figures: Record<string, StageFigures> = {};
  for (const [name, call] of Object.entries(stages)) {
    figures[name] = await run(call);
    const f = figures[name];
    console.log(`${name.padEnd(14)} ${String(f.callsPerSecond).padStart(7)} calls/s  p50 ${f.p50Ms} ms  p99 ${f.p99Ms} ms`);
  }
  console.log(
    JSON.stringify({ backend: database ? "postgres" : "pglite", rateLimits: redis ? "redis" : "memory", concurrency, stages: figures }),
  );
} finally {
  redis?.disconnect();
  await store.close();
  await index.close();
  await database?.drop();
  rmSync(dir, { recursive: true, force: true });
}
