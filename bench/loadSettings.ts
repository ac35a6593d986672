/**
 * The load of the HTTP benchmarks (bench:access, bench:market), from the environment: BENCH_DURATION
 * (s, 10) per run, BENCH_CONNECTIONS (50), BENCH_ROUNDS (3) of interleaved runs, BENCH_RATE_SECONDS
 * (20) at a steady 1,000 req/s (bench/measureSteadyRate.ts) over BENCH_RATE_CONNECTIONS (10), BENCH_WARMUP_SECONDS (2, 0: none) of
 * warm-up for each server, BENCH_CPU_PROF_DIR (unset: no profile) for the measured server's V8 CPU profile.
 */
export const loadSettings = {
  duration: Number(process.env.BENCH_DURATION ?? 10),
  connections: Number(process.env.BENCH_CONNECTIONS ?? 50),
  rounds: Number(process.env.BENCH_ROUNDS ?? 3),
  rateSeconds: Number(process.env.BENCH_RATE_SECONDS ?? 20),
  /** Connections the steady rate's requests share: a request waits for a free one (10 keep up with 1,000 a second). */
  rateConnections: Number(process.env.BENCH_RATE_CONNECTIONS ?? 10),
  warmupSeconds: Number(process.env.BENCH_WARMUP_SECONDS ?? 2),
  cpuProfileDir: process.env.BENCH_CPU_PROF_DIR || undefined,
};

/** The API key of run `run` (each run has its own: one PRO key's 500,000 credits last about 30 s of full load). */
export function keyOf(keys: readonly string[], run: number): string {
  const key = keys[run];
  if (key === undefined) throw new Error(`no API key for run ${run}: ${keys.length} keys for the runs`);
  return key;
}
