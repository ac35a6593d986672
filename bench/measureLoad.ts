import autocannon from "autocannon";

/** One autocannon run: requests per second, p99 latency (ms) and the count of each status. */
export type LoadRun = { rps: number; p99Ms: number; statuses: Record<string, number> };

export type MeasureLoadParameters = {
  url: string;
  headers?: Record<string, string>;
  connections: number;
  seconds: number;
};

/**
 * Runs that ended before one answer came back, each twice as long as the last, before the server is called
 * stalled: a run counts only answers completed inside it, and on a starved machine one answer can take longer
 * than a short run.
 */
const runsWithoutAnswer = 3;

/**
 * One time-bounded autocannon run from this process, each connection sending as fast as it is answered
 * (a steady rate: bench/measureSteadyRate.ts); throws unless it got answers and every one is a 2xx.
 * A run without a single answer is run again, longer (`runsWithoutAnswer`).
 */
export async function measureLoad({ url, headers, connections, seconds }: MeasureLoadParameters): Promise<LoadRun> {
  const runFor = (duration: number) => autocannon({ url, headers, connections, duration });
  let duration = seconds;
  let result = await runFor(duration);
  for (let run = 2; result.requests.total === 0 && run <= runsWithoutAnswer; run++) {
    console.error(`${url}: no answer within ${duration} s, measuring again for ${duration * 2} s`);
    duration *= 2;
    result = await runFor(duration);
  }
  const statuses = result.statusCodeStats as unknown as Record<string, { count: number }>;
  const counts = Object.fromEntries(Object.entries(statuses).map(([code, s]) => [code, s.count]));
  if (result.requests.total === 0) throw new Error(`${url}: no answer within ${duration} s (a starved machine, or a stalled server)`);
  if (result.errors > 0 || result["2xx"] !== result.requests.total) {
    throw new Error(`${url}: ${result.errors} errors, statuses ${JSON.stringify(counts)} of ${result.requests.total} answers`);
  }
  return { rps: result.requests.total / result.duration, p99Ms: result.latency.p99, statuses: counts };
}
