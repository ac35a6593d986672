import { Agent, request } from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import type { LoadRun } from "./measureLoad";
import { percentile } from "./percentile";

export type MeasureSteadyRateParameters = {
  url: string;
  headers?: Record<string, string>;
  /** Requests a second, each sent at its own time: request i at i / rate seconds from the start. */
  rate: number;
  seconds: number;
  /** Keep-alive connections the requests share; a request due while all are busy waits for one. */
  connections: number;
  /**
   * A run at the same rate on the same target first, its figures dropped (0: none). A key's first calls
   * grow its credit lease from nothing, a store write each with the calls behind it waiting: the measured
   * run is of a key in use.
   */
  warmupSeconds?: number;
};

/** How long the pacing loop sleeps between looks at the clock (ms); every request due by then is sent. */
const pacingTickMs = 1;

/** A request with no activity for this long fails the run (ms). */
const requestTimeoutMs = 30_000;

/**
 * An open-loop run at a steady rate: request i is due at i / `rate` seconds, and its latency runs from
 * then to its answer's last byte, so time spent waiting for a free connection or for a late sender counts
 * (no coordinated omission). autocannon's `overallRate` is not used for this: each of its connections
 * sends its whole second's quota as fast as it can at the top of each second, then idles, so "1,000
 * req/s" arrives as one burst a second (a CPU profile of the served route shows it busy 200 ms of every
 * second, idle the rest) and its p99 is that burst's. Throws unless every request got a 2xx. Its `rps` is
 * the answers over the time from the first request's due time to the last answer, so a server that falls
 * behind shows below `rate`.
 */
export async function measureSteadyRate({ warmupSeconds = 0, ...run }: MeasureSteadyRateParameters): Promise<LoadRun> {
  if (warmupSeconds > 0) await steadyRun({ ...run, seconds: warmupSeconds });
  return steadyRun(run);
}

async function steadyRun({
  url,
  headers,
  rate,
  seconds,
  connections,
}: Omit<MeasureSteadyRateParameters, "warmupSeconds">): Promise<LoadRun> {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const total = Math.round(rate * seconds);
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  const errors: string[] = [];
  const send = (dueAt: number) =>
    new Promise<void>((done) => {
      let settled = false;
      const fail = (error: Error) => {
        if (settled) return;
        settled = true;
        errors.push(error.message);
        done();
      };
      const req = request(url, { agent, headers }, (res) => {
        res.resume();
        res.once("error", fail);
        res.once("aborted", () => fail(new Error("answer aborted")));
        res.once("end", () => {
          if (settled) return;
          settled = true;
          latencies.push(performance.now() - dueAt);
          const status = String(res.statusCode);
          statuses[status] = (statuses[status] ?? 0) + 1;
          done();
        });
      });
      // A server that stops answering fails the run instead of hanging it.
      req.setTimeout(requestTimeoutMs, () => req.destroy(new Error(`no answer within ${requestTimeoutMs} ms`)));
      req.once("error", fail);
      req.end();
    });
  const start = performance.now();
  const inFlight: Promise<void>[] = [];
  for (let sent = 0; sent < total; ) {
    const due = Math.min(total, Math.floor(((performance.now() - start) * rate) / 1000) + 1);
    for (; sent < due; sent++) inFlight.push(send(start + (sent * 1000) / rate));
    await sleep(pacingTickMs);
  }
  await Promise.all(inFlight);
  const elapsedSeconds = (performance.now() - start) / 1000;
  agent.destroy();
  const answered = latencies.length;
  const ok = Object.entries(statuses).reduce((n, [status, count]) => (status.startsWith("2") ? n + count : n), 0);
  if (errors.length > 0 || ok !== total) {
    throw new Error(
      `${url}: ${errors.length} errors (${errors[0] ?? "none"}), statuses ${JSON.stringify(statuses)} of ${answered} answers`,
    );
  }
  return { rps: answered / elapsedSeconds, p99Ms: Number(percentile(latencies, 99).toFixed(1)), statuses };
}
