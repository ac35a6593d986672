import { createServer, type Server } from "node:http";
import { afterEach, describe, expect, test } from "vitest";
import { measureSteadyRate } from "../../bench/measureSteadyRate";
import { closeServer, listenOnLoopback } from "../support/listenOnLoopback";

describe("measureSteadyRate", () => {
  let server: Server | undefined;
  afterEach(() => closeServer(server));

  test("behavior: requests arrive spread over each second, not as one burst at its top", async () => {
    const arrivals: number[] = [];
    server = createServer((_req, res) => {
      arrivals.push(performance.now());
      res.end("ok");
    });
    const url = await listenOnLoopback(server);
    const run = await measureSteadyRate({ url, rate: 100, seconds: 3, connections: 10 });
    expect(run.statuses).toEqual({ "200": 300 });
    // 30 windows of 100 ms, 10 requests due in each. A per-second burst (autocannon's overallRate) fills 3-6 of
    // them; half is the bound, so a busy machine's stalls of the pacing loop (each empties a window or more) pass.
    const first = arrivals[0] ?? 0;
    const windows = new Set(arrivals.map((at) => Math.floor((at - first) / 100)));
    expect(windows.size).toBeGreaterThanOrEqual(15);
  });

  test("behavior: the requests due behind a stalled answer count their wait, from when each was due", async () => {
    let requests = 0;
    server = createServer((_req, res) => {
      requests++;
      if (requests === 50) setTimeout(() => res.end("ok"), 300);
      else res.end("ok");
    });
    const url = await listenOnLoopback(server);
    const run = await measureSteadyRate({ url, rate: 100, seconds: 2, connections: 1 });
    // 200 requests, the p99 the 2nd slowest. One connection: the ~30 requests due while the 50th was held waited
    // for it (290 ms, 280 ms, ...); timed from their own sending they would be ~1 ms and the p99 too.
    expect(run.p99Ms).toBeGreaterThanOrEqual(200);
    expect(run.statuses).toEqual({ "200": 200 });
  });

  test("error: an answer other than 2xx fails the run with the statuses seen", async () => {
    server = createServer((_req, res) => {
      res.statusCode = 503;
      res.end();
    });
    const url = await listenOnLoopback(server);
    await expect(measureSteadyRate({ url, rate: 50, seconds: 1, connections: 1 })).rejects.toThrow(/statuses \{"503":50\}/);
  });

  test("error: an answer cut off midway fails the run with its error, without waiting on it", async () => {
    let requests = 0;
    server = createServer((_req, res) => {
      requests++;
      if (requests !== 10) return res.end("ok");
      res.writeHead(200, { "content-length": "100" });
      res.write("partial");
      setTimeout(() => res.destroy(), 50);
    });
    const url = await listenOnLoopback(server);
    await expect(measureSteadyRate({ url, rate: 50, seconds: 1, connections: 2 })).rejects.toThrow(/1 errors \((aborted|answer aborted)/);
  });
});
