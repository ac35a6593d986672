import { createServer, type Server } from "node:http";
import { afterEach, describe, expect, test } from "vitest";
import { measureLoad } from "../../bench/measureLoad";
import { closeServer, listenOnLoopback } from "../support/listenOnLoopback";

/**
 * A server whose first request is held until another arrives: a run's only request never completes inside
 * it, as on a machine too starved to answer within a short run.
 */
async function startFirstRequestHeld(): Promise<{ server: Server; url: string; requests: () => number }> {
  let requests = 0;
  let releaseFirst = () => {};
  const server = createServer((_req, res) => {
    requests++;
    if (requests === 1) {
      releaseFirst = () => res.end("late");
      return;
    }
    releaseFirst();
    res.end("ok");
  });
  return { server, url: await listenOnLoopback(server), requests: () => requests };
}

describe("measureLoad", () => {
  let server: Server | undefined;
  afterEach(() => closeServer(server));

  test("behavior: a run that got no answer is run again, longer, and its figures are the answered run's", async () => {
    const held = await startFirstRequestHeld();
    server = held.server;
    const run = await measureLoad({ url: held.url, connections: 1, seconds: 1 });
    expect(held.requests()).toBeGreaterThan(1);
    expect(run.rps).toBeGreaterThan(0);
    expect(Object.keys(run.statuses)).toEqual(["200"]);
  });

  test("error: a server that never answers is named stalled after the bounded reruns", async () => {
    server = createServer(() => {});
    const url = await listenOnLoopback(server);
    await expect(measureLoad({ url, connections: 1, seconds: 1 })).rejects.toThrow(/no answer within 4 s/);
  });
});
