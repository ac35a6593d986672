import { type IncomingMessage, request } from "node:http";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createRateLimits } from "../../api/access/createRateLimits";
import { unlimitedRates } from "../support/access";
import { testManifest } from "../support/devnet";
import { testOrigins } from "../support/keyClaims";
import {
  connectClient,
  connectV2Sse,
  endpointOf,
  legacyInitialize,
  type McpTestService,
  requestSseStream,
  routeTools,
  startMcpService,
  toolsList,
} from "./support";

/**
 * The MCP attacks of issue #36, as one client address makes them over real HTTP. Each test speaks from a
 * loopback address of its own (127.0.0.x: the service sees it as the client's address), so their
 * budgets are apart; the official clients speak from 127.0.0.1.
 */
const manifest = testManifest();
const perMinute = 30;
const perClient = 3;
const maxStreams = 50;

let service: McpTestService;
/** The same service but for a short idle timeout (the other tests hold streams idle for as long as they like). */
let idleService: McpTestService;
const idleMs = 1500;

const mcpSettings = { allowedOrigins: [testOrigins.public], maxStreams, maxStreamsPerClient: perClient };
/** Each service's own budgets: MCP_REQUESTS_PER_MINUTE is `perMinute` there. */
const budget = () => ({ rateLimits: createRateLimits({ perMinute: { ...unlimitedRates, MCP: perMinute } }) });
beforeAll(async () => {
  [service, idleService] = await Promise.all([
    startMcpService(manifest, { mcp: { ...mcpSettings, streamIdleMs: 3_600_000 } }, budget()),
    startMcpService(manifest, { mcp: { ...mcpSettings, streamIdleMs: idleMs } }, budget()),
  ]);
}, 240_000);
afterAll(async () => {
  await service?.stop();
  await idleService?.stop();
});

type Answer = { status: number; headers: IncomingMessage["headers"]; body: Record<string, unknown> };

/** One request from local address `from` to `target`'s `path`, its JSON answer read whole. */
function send(target: McpTestService, from: string, method: "GET" | "POST", path: string, body?: unknown): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, target.origin), {
      method,
      localAddress: from,
      agent: false,
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    });
    req.on("error", reject).on("response", (res) => {
      let text = "";
      res.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: parseBody(text) }));
    });
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

/** An SSE answer's `data:` line when the body is a stream (the 2025-era stateless transport), else the JSON. */
function parseBody(text: string): Record<string, unknown> {
  const data = /^data: (.*)$/m.exec(text)?.[1];
  return text ? (JSON.parse(data ?? text) as Record<string, unknown>) : {};
}

type Stream = { status: number; res: IncomingMessage; messages?: string; close(): void; ended: Promise<void> };

/** GET /sse from `from`: a 200 stream read to its endpoint event (then drained), or a refusal with its JSON. */
async function openStream(target: McpTestService, from: string): Promise<Stream & { body?: Record<string, unknown> }> {
  const { req, res } = await requestSseStream(target.origin, from);
  const ended = new Promise<void>((done) => res.on("close", done));
  const close = () => req.destroy();
  if (res.statusCode !== 200) {
    let text = "";
    for await (const chunk of res) text += (chunk as Buffer).toString("utf8");
    return { status: res.statusCode ?? 0, res, close, ended, body: JSON.parse(text) as Record<string, unknown> };
  }
  const messages = await endpointOf(res);
  res.resume();
  return { status: 200, res, messages, close, ended };
}

const initialize = legacyInitialize("budget");

/** Whether `answer` is the service's rate-limit refusal: 429 RATE_LIMITED with an integer Retry-After. */
function expectRateLimited(answer: Answer | undefined) {
  expect(answer?.status).toBe(429);
  expect(answer?.body).toMatchObject({ error: "RATE_LIMITED", message: expect.any(String) });
  expect(Number(answer?.headers["retry-after"])).toBeGreaterThanOrEqual(1);
  expect(Number.isInteger(Number(answer?.headers["retry-after"]))).toBe(true);
}

describe("requests per minute per client address", () => {
  test("error: POST /mcp from one address: its budget of tools/list is answered, then 429 RATE_LIMITED with Retry-After; another client is unaffected", async () => {
    const answers: Answer[] = [];
    for (let i = 0; i < perMinute + 10; i++) {
      answers.push(await send(service, "127.0.0.21", "POST", "/mcp", initializeThen(i)));
    }
    expect(answers.filter((a) => a.status === 200)).toHaveLength(perMinute);
    for (const refused of answers.slice(perMinute)) expectRateLimited(refused);
    const client = await connectClient("v2 default (2025)", service.origin);
    expect((await client.listTools()).tools).toHaveLength(routeTools.length);
    await client.close();
  });

  test("error: GET /sse opened and closed from one address: its budget of streams is opened, then 429 RATE_LIMITED", async () => {
    const statuses: number[] = [];
    let refused: Stream & { body?: Record<string, unknown> } = await openStream(service, "127.0.0.22");
    for (let i = 0; i < perMinute + 5; i++) {
      statuses.push(refused.status);
      refused.close();
      await refused.ended;
      refused = await openStream(service, "127.0.0.22");
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(perMinute);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ error: "RATE_LIMITED" });
    expect(Number(refused.res.headers["retry-after"])).toBeGreaterThanOrEqual(1);
  });

  test("error: POST /messages to one open session: the address's budget (the stream counted) is accepted, then 429 RATE_LIMITED", async () => {
    const stream = await openStream(service, "127.0.0.23");
    const answers: Answer[] = [await send(service, "127.0.0.23", "POST", stream.messages ?? "", initialize)];
    for (let i = 1; i < perMinute + 5; i++) answers.push(await send(service, "127.0.0.23", "POST", stream.messages ?? "", toolsList(i)));
    stream.close();
    expect(answers.filter((a) => a.status === 200)).toHaveLength(perMinute - 1);
    for (const refused of answers.slice(perMinute - 1)) expectRateLimited(refused);
  });
});

/** A 2025-era stateless tools/list (the first one an initialize, as a client connects). */
function initializeThen(i: number) {
  return i === 0 ? { ...initialize, params: { ...initialize.params, protocolVersion: "2025-06-18" } } : toolsList(i);
}

describe("open streams per client address", () => {
  test(`error: one address holds at most ${perClient} streams (429 MCP_TOO_MANY_STREAMS beyond), others still open theirs, and a closed one frees its place`, async () => {
    const held = [];
    for (let i = 0; i < perClient; i++) held.push(await openStream(service, "127.0.0.24"));
    expect(held.map((s) => s.status)).toEqual(new Array(perClient).fill(200));
    const beyond = await openStream(service, "127.0.0.24");
    expect(beyond.status).toBe(429);
    expect(beyond.body).toMatchObject({ error: "MCP_TOO_MANY_STREAMS", message: expect.any(String) });
    expect(Number(beyond.res.headers["retry-after"])).toBeGreaterThanOrEqual(1);

    // Everyone else: another address, and an official 2024-11-05 client.
    const other = await openStream(service, "127.0.0.25");
    expect(other.status).toBe(200);
    other.close();
    const client = await connectV2Sse(service.origin);
    expect((await client.listTools()).tools).toHaveLength(routeTools.length);
    await client.close();

    held[0]?.close();
    // The server sees the client go a moment later: asked again by rounds, not against a time bound.
    let reopened = beyond;
    for (let round = 0; round < 100 && reopened.status === 429; round++) {
      await new Promise((r) => setTimeout(r, 20));
      reopened = await openStream(service, "127.0.0.24");
    }
    expect(reopened.status).toBe(200);
    reopened.close();
    for (const s of held) s.close();
  });

  test("behavior: a stream on which the client posts nothing is closed once idle past the timeout, its place freed and its session gone", async () => {
    const idle = [];
    for (let i = 0; i < perClient; i++) idle.push(await openStream(idleService, "127.0.0.26"));
    expect(idle.map((s) => s.status)).toEqual(new Array(perClient).fill(200));
    // The server ends each stream: the test waits for that, however long the machine takes.
    await Promise.all(idle.map((s) => s.ended));
    const gone = await send(idleService, "127.0.0.26", "POST", idle[0]?.messages ?? "", initialize);
    expect(gone.status).toBe(404);
    expect(gone.body).toMatchObject({ error: { data: { error: "MCP_SESSION_NOT_FOUND" } } });
    const again = await openStream(idleService, "127.0.0.26");
    expect(again.status).toBe(200);
    again.close();
  }, 60_000);
});
