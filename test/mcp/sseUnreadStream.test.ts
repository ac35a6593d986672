import type { IncomingMessage } from "node:http";
import { afterAll, beforeAll, expect, test } from "vitest";
import { pidListeningOn } from "../../bench/processCpu";
import { residentSetSizes } from "../../bench/residentSetSizes";
import { type RunningService, startService, waitForJson } from "../support/startService";
import { endpointOf, legacyInitialize, requestSseStream, toolsList } from "./support";

/**
 * The attack of issue #36 as the reviewer ran it against `npm start`: one legacy SSE stream whose client
 * stops reading, and thousands of `tools/list` posted to its session. The service runs as users run it (a
 * child process), its resident set read from /proc. The per-minute MCP budget is raised here: this file is
 * about the reply queue's bound, not the request budget (test/mcp/mcpClientBudgets.test.ts).
 */
const posts = 3000;
let service: RunningService;
let pid: number;

beforeAll(async () => {
  service = await startService({ DEVNET_TRAFFIC: "false", MCP_REQUESTS_PER_MINUTE: "1000000" });
  await waitForJson(`${service.baseUrl}/ready`, (status) => status === 200, 180_000, service);
  const found = pidListeningOn(Number(new URL(service.baseUrl).port));
  if (!found) throw new Error("cannot find the service's process in /proc");
  pid = found;
}, 240_000);
afterAll(() => service?.stop());

const rssMb = () => residentSetSizes({ service: pid }).service ?? Number.NaN;
const initialize = legacyInitialize("unread");

/** GET /sse on its own socket, read up to the endpoint event: the session's /messages URL and the response. */
async function openStream(): Promise<{ messages: URL; res: IncomingMessage; destroy(): void }> {
  const { req, res } = await requestSseStream(service.baseUrl);
  expect(res.statusCode).toBe(200);
  const endpoint = await endpointOf(res);
  return { messages: new URL(endpoint, service.baseUrl), res, destroy: () => req.destroy() };
}

const post = (url: URL, body: unknown) =>
  fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

test(`behavior: a stream that is never read, with ${posts} tools/list posted to its session, costs the service under 20 MB and is closed; later posts are 404`, async () => {
  // Warm-up, so that the process's code and heap reach their working size for this traffic first: replies
  // on a stream that is read, and posts to a session that is gone.
  const warm = await openStream();
  warm.res.resume();
  expect((await post(warm.messages, initialize)).status).toBe(200);
  for (let i = 1; i <= 300; i++) await (await post(warm.messages, toolsList(i))).arrayBuffer();
  warm.destroy();
  const gone = new URL(`${warm.messages.pathname}?sessionId=00000000-0000-0000-0000-000000000000`, service.baseUrl);
  for (let i = 1; i <= posts; i++) await (await post(gone, toolsList(i))).arrayBuffer();
  const before = rssMb();

  const unread = await openStream();
  // From here the client reads nothing: its socket's buffers fill, then the server's stream backs up.
  unread.res.pause();
  const statuses: number[] = [];
  const codes = new Set<string>();
  expect((await post(unread.messages, initialize)).status).toBe(200);
  for (let i = 1; i <= posts; i++) {
    const res = await post(unread.messages, toolsList(i));
    statuses.push(res.status);
    const body = (await res.json()) as { error?: { data?: { error?: string } } };
    if (res.status !== 200) codes.add(body.error?.data?.error ?? "none");
  }
  const after = rssMb();
  unread.destroy();

  const firstRefused = statuses.findIndex((s) => s !== 200);
  console.log(
    `[unread stream] RSS ${before} -> ${after} MB; ${firstRefused === -1 ? posts : firstRefused} posts accepted, then ${[...codes].join(", ")}`,
  );
  expect(after - before).toBeLessThan(20);
  // The session was closed once its unread replies passed the bound: every later post is 404 MCP_SESSION_NOT_FOUND.
  expect(firstRefused).toBeGreaterThan(0);
  expect(statuses.slice(firstRefused).every((s) => s === 404)).toBe(true);
  expect([...codes]).toEqual(["MCP_SESSION_NOT_FOUND"]);
}, 600_000);
