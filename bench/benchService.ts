import { createThrowawayDatabase } from "../test/support/postgres";
import { startService, waitForJson } from "../test/support/startService";

/** The `npm start` a service benchmark measures, and the Postgres database it runs on (undefined: PGlite). */
export type BenchService = { baseUrl: string; manifestPath: string; databaseUrl: string | undefined; stop(): Promise<void> };

/**
 * The PRO keys' per-minute limit in a service started here, 100,000 a second, and one client address's
 * keyless requests (x402 payments among them): far above what one machine serves, so no answer is a 429,
 * yet every call is counted (the plan's 1,200 a minute, and 60 keyless, are below the load).
 */
const benchServiceEnv = { TIER_RATE_LIMITS: "PRO=6000000", PUBLIC_REQUESTS_PER_MINUTE: "6000000" };

/** The `npm start` to measure instead of starting one: BENCH_SERVICE_URL (its public listener) and BENCH_SERVICE_MANIFEST. */
export const outsideService = process.env.BENCH_SERVICE_URL
  ? { baseUrl: process.env.BENCH_SERVICE_URL, manifestPath: process.env.BENCH_SERVICE_MANIFEST ?? "" }
  : undefined;
if (outsideService && !outsideService.manifestPath)
  throw new Error("BENCH_SERVICE_URL needs BENCH_SERVICE_MANIFEST, its devnet's manifest");

/** Only a start that hangs fails: seeding and the first backfill take about 80 s quiet, several times that beside other work. */
const startHangMs = 360_000;

/**
 * The service for bench:listener, bench:market, bench:memory and bench:x402, ready. By default `npm start` as a
 * user runs it (free ports, a private folder; PGlite, or a throwaway database on DATABASE_URL's server)
 * with benchServiceEnv and `env`; `stop` ends it and drops that database. With BENCH_SERVICE_URL and
 * BENCH_SERVICE_MANIFEST, an `npm start` already running on this machine (the smoke test's, shared by
 * the four), started with benchServiceEnv, on DATABASE_URL itself when that is set; `env`
 * is then not applied and `stop` leaves it running.
 */
export async function benchService(env: Record<string, string> = {}): Promise<BenchService> {
  const databaseUrl = process.env.DATABASE_URL || undefined;
  if (outsideService) return { ...outsideService, databaseUrl, stop: async () => {} };
  const database = databaseUrl ? await createThrowawayDatabase(databaseUrl) : undefined;
  const service = await startService({ ...benchServiceEnv, ...env, ...(database ? { DATABASE_URL: database.url } : {}) });
  const stop = async () => {
    await service.stop();
    await database?.drop();
  };
  try {
    await waitForJson(`${service.baseUrl}/ready`, (status) => status === 200, startHangMs, service);
  } catch (error) {
    await stop();
    throw error;
  }
  return { baseUrl: service.baseUrl, manifestPath: service.manifestPath, databaseUrl: database?.url, stop };
}
