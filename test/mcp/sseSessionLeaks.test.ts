import type { ClientRequest, IncomingMessage } from "node:http";
import v8 from "node:v8";
import vm from "node:vm";
import { afterAll, beforeAll, expect, test } from "vitest";
import { testManifest } from "../support/devnet";
import { testOrigins } from "../support/keyClaims";
import { endpointOf, type McpTestService, requestSseStream, startMcpService } from "./support";

const manifest = testManifest();
const sessions = 200;
/**
 * The service's own connections to the devnet and their timers come and go meanwhile (one fewer was seen
 * once on a loaded machine): a few of them are allowed for.
 */
const background = 4;
v8.setFlagsFromString("--expose-gc");
const gc = vm.runInNewContext("gc") as () => void;

let service: McpTestService;
beforeAll(async () => {
  // Every session comes from this one address: its share is the whole replica's here.
  service = await startMcpService(manifest, {
    mcp: { allowedOrigins: [testOrigins.public], maxStreams: sessions, maxStreamsPerClient: sessions },
  });
}, 120_000);
afterAll(() => service?.stop());

/** A legacy session as a client opens it: GET /sse on its own socket, read to its endpoint event, then initialize through POST /messages. */
async function openSession(): Promise<{ req: ClientRequest; res: IncomingMessage }> {
  const { req, res } = await requestSseStream(service.origin);
  expect(res.statusCode).toBe(200);
  const endpoint = await endpointOf(res);
  const init = {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2024-11-05", capabilities: {}, clientInfo: { name: "leak", version: "1" } },
  };
  const accepted = await fetch(new URL(endpoint, service.origin), {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(init),
  });
  expect(accepted.status).toBe(200);
  return { req, res };
}

/** Counts of the process's active handles by kind (sockets, timers, ...). */
function handles(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const kind of process.getActiveResourcesInfo()) counts[kind] = (counts[kind] ?? 0) + 1;
  return counts;
}
const heapUsed = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};
const sockets = (h: Record<string, number>) => h.TCPSocketWrap ?? 0;
const timers = (h: Record<string, number>) => h.Timeout ?? 0;

/** Opens `sessions` sessions, then drops every client and waits (by rounds, not a time bound) until the server has seen each go and cleared its timer. */
async function cycle(baseline: Record<string, number>, measure?: () => void) {
  const open = [];
  for (let i = 0; i < sessions; i++) open.push(await openSession());
  measure?.();
  for (const { req } of open) req.destroy();
  const lingering = (now: Record<string, number>) =>
    sockets(now) > sockets(baseline) + background || timers(now) > timers(baseline) + background;
  for (let round = 0; round < 500 && lingering(handles()); round++) await new Promise((r) => setTimeout(r, 20));
}

test("behavior: 200 legacy SSE sessions opened and dropped leave no sockets, timers or memory behind, and free their places", async () => {
  // Two warm-up rounds: what the first sessions leave for good (compiled code, pools) is not a leak; measured
  // here it was 2.5 MB, then 1.7 MB, then 0.2 MB a round, then flat.
  const idle = handles();
  await cycle(idle);
  await cycle(idle);
  const before = handles();
  const heapBefore = heapUsed();
  let during: Record<string, number> = {};
  let heapDuring = 0;
  await cycle(before, () => {
    during = handles();
    heapDuring = heapUsed();
  });
  const after = handles();
  const heapAfter = heapUsed();

  // Both ends of each stream are sockets of this process; each session has its keep-alive timer.
  expect(sockets(during) - sockets(before)).toBeGreaterThanOrEqual(2 * sessions - background);
  expect(timers(during) - timers(before)).toBeGreaterThanOrEqual(sessions - background);
  expect(sockets(after)).toBeLessThanOrEqual(sockets(before) + background);
  expect(timers(after)).toBeLessThanOrEqual(timers(before) + background);
  // What the sessions held is given back: at most a tenth of it stays.
  expect((heapAfter - heapBefore) / (heapDuring - heapBefore)).toBeLessThan(0.1);
  // Every place is free again: the bound admits 200 new sessions, and no more.
  const again = [];
  for (let i = 0; i < sessions; i++) again.push(await openSession());
  expect((await fetch(`${service.origin}/sse`)).status).toBe(503);
  for (const { req } of again) req.destroy();
}, 300_000);
