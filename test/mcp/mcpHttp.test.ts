import { readFileSync } from "node:fs";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as V1HttpTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { validateDiscoveryExtension } from "@x402/extensions/bazaar";
import Ajv from "ajv";
import addFormats from "ajv-formats";
import type { Address, Hex } from "viem";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { mcpStreamRetryMs } from "../../api/mcp/primeEventStream";
import { mcpEnv } from "../../clients/js/src/mcp/readMcpConfig";
import { testManifest } from "../support/devnet";
import { testOrigins } from "../support/keyClaims";
import { connectV2Sse, type McpTestService, proKey, routeTools, startMcpService } from "./support";

/** This file signs as users[13]'s wallet in its own store (no transactions). */
const manifest = testManifest();
const user = manifest.accounts.users[13] as { address: Address; privateKey: Hex };

const both = "application/json, text/event-stream";
const clientInfo = { name: "raw", version: "1" };
const modernMeta = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientInfo": clientInfo,
  "io.modelcontextprotocol/clientCapabilities": {},
};
/** A 2026-07-28 request as the v2 client sends it: Mcp-Method (and Mcp-Name) headers and the `_meta` envelope. */
const modern = (method: string, params: Record<string, unknown> = {}, id: number | string = 1) => ({
  headers: { "mcp-protocol-version": "2026-07-28", "mcp-method": method, ...(params.name ? { "mcp-name": String(params.name) } : {}) },
  body: { jsonrpc: "2.0", id, method, params: { ...params, _meta: modernMeta } },
});
/** A 2025-era request (stateless: no session), `version` in its MCP-Protocol-Version header. */
const legacy = (version: string, method: string, params: Record<string, unknown> = {}, id: number | string = 1) => ({
  headers: { "mcp-protocol-version": version },
  body: { jsonrpc: "2.0", id, method, params },
});
const initialize = (version: string) => ({
  headers: {},
  body: { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: version, capabilities: {}, clientInfo } },
});
const legacyVersions = ["2025-11-25", "2025-06-18", "2025-03-26"];
/** The official MCP registry's server.json schema, a copy of its 2025-12-11 version, and the JS client's package. */
const registrySchemaPath = new URL("../../docs/schemas/mcp-registry-server-2025-12-11.schema.json", import.meta.url);
const stdioPackagePath = new URL("../../clients/mcp/package.json", import.meta.url);

let service: McpTestService;
let apiKey: string;

beforeAll(async () => {
  service = await startMcpService(manifest, { mcp: { allowedOrigins: [testOrigins.public, "https://agent.example"], maxStreams: 3 } });
  apiKey = await proKey(service, user);
}, 120_000);
afterAll(() => service?.stop());

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${service.origin}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: both, ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
const postMcp = (message: { headers: Record<string, string>; body: unknown }, headers: Record<string, string> = {}) =>
  post("/mcp", message.body, { ...message.headers, ...headers });
const rpcError = async (res: Response) =>
  ((await res.json()) as { error: { code: number; message: string; data?: { error: string } } }).error;
const creditsUsed = async () =>
  ((await (await service.app.request("/v1/keys/self", { headers: { "x-api-key": apiKey } })).json()) as { credits: { used: number } })
    .credits.used;

/** Reads an SSE response's frames until `until` holds for one of them (the stream stays open). */
async function readFrames(res: Response, until: (frame: string) => boolean): Promise<string[]> {
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  const frames: string[] = [];
  let buffer = "";
  while (!frames.some(until)) {
    const { done, value } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    const parts = buffer.split("\n\n");
    buffer = parts.pop() ?? "";
    frames.push(...parts);
  }
  reader.releaseLock();
  return frames;
}

/** The events of a whole SSE body: each event's fields (comments left out). */
function sseEvents(text: string): Record<string, string>[] {
  return text
    .split("\n\n")
    .map((block) =>
      Object.fromEntries(
        block
          .split("\n")
          .filter((line) => line !== "" && !line.startsWith(":"))
          .map((line) => {
            const colon = line.indexOf(":");
            return [line.slice(0, colon), line.slice(colon + 1).replace(/^ /, "")];
          }),
      ),
    )
    .filter((event) => Object.keys(event).length > 0);
}

describe("POST /mcp", () => {
  test("default: 2026-07-28 server/discover and tools/call are 200 application/json; a 2025-era initialize is 200 as an SSE stream", async () => {
    const discover = await postMcp(modern("server/discover"));
    expect(discover.status).toBe(200);
    expect(discover.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await discover.json()).toMatchObject({
      result: {
        supportedVersions: ["2026-07-28"],
        _meta: { "io.modelcontextprotocol/serverInfo": { name: "base-capability-market-service" } },
      },
    });
    const call = await postMcp(modern("tools/call", { name: "svc_get_service_status", arguments: {} }), { accept: "application/json" });
    expect(call.status).toBe(200);
    expect(call.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await call.json()).toMatchObject({ result: { structuredContent: { apiVersion: "2.2.0" } } });
    for (const version of [...legacyVersions, "2024-11-05"]) {
      const res = await postMcp(initialize(version));
      expect(res.status, version).toBe(200);
      expect(res.headers.get("content-type"), version).toMatch(/^text\/event-stream/);
      expect(await res.text(), version).toContain(`"protocolVersion":"${version}"`);
    }
  });

  test("behavior: a 2025-11-25 event stream begins with a priming event (an id, empty data) and a retry field; older versions get none", async () => {
    const statusCall = { name: "svc_get_service_status", arguments: {} };
    for (const message of [initialize("2025-11-25"), legacy("2025-11-25", "tools/call", statusCall)]) {
      const res = await postMcp(message);
      expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
      const [priming, answer, ...rest] = sseEvents(await res.text());
      expect(priming).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), retry: String(mcpStreamRetryMs), data: "" });
      expect(JSON.parse(answer?.data ?? "")).toMatchObject({ jsonrpc: "2.0", id: 1, result: {} });
      expect(rest).toEqual([]);
    }
    // Their clients would parse the empty data as JSON: the SDK's rule, and the stream stays as it was.
    for (const message of [initialize("2025-06-18"), legacy("2025-06-18", "tools/call", statusCall), legacy("2025-03-26", "tools/list")]) {
      const events = sseEvents(await (await postMcp(message)).text());
      expect(events.map((e) => Object.keys(e))).toEqual([["event", "data"]]);
    }
  });

  test("behavior: the official clients (v2 and v1, negotiating 2025-11-25) read the priming event and get their answers", async () => {
    const mcp = new URL("/mcp", service.origin);
    const v2 = new Client({ name: "svc-test", version: "1.0.0" });
    await v2.connect(new StreamableHTTPClientTransport(mcp));
    const v1 = new V1Client({ name: "svc-test", version: "1.0.0" });
    await v1.connect(new V1HttpTransport(mcp));
    const tokens: string[] = [];
    const onresumptiontoken = (token: string) => tokens.push(token);
    const call = { name: "svc_get_service_status", arguments: {} };
    const answers = [await v2.callTool(call, { onresumptiontoken }), await v1.callTool(call, undefined, { onresumptiontoken })];
    for (const answer of answers) expect(answer.structuredContent).toMatchObject({ apiVersion: "2.2.0" });
    expect(tokens).toHaveLength(2);
    await Promise.all([v2.close(), v1.close()]);
  });

  test("behavior: a notification or a response is 202 with no body", async () => {
    for (const message of [
      { headers: { "mcp-protocol-version": "2025-06-18" }, body: { jsonrpc: "2.0", method: "notifications/initialized" } },
      { headers: { "mcp-protocol-version": "2025-06-18" }, body: { jsonrpc: "2.0", id: 7, result: {} } },
    ]) {
      const res = await postMcp(message);
      expect(res.status, JSON.stringify(message.body)).toBe(202);
      expect(await res.text()).toBe("");
    }
  });

  test("error: bad JSON, not JSON-RPC and an unsupported protocol version are 400 with a JSON-RPC error (the supported list named)", async () => {
    for (const headers of [{ "mcp-protocol-version": "2026-07-28" }, { "mcp-protocol-version": "2025-06-18" }]) {
      const bad = await post("/mcp", "{not json", headers);
      expect(bad.status).toBe(400);
      expect(await rpcError(bad)).toMatchObject({ code: -32700 });
      const notRpc = await post("/mcp", { hello: "world" }, headers);
      expect(notRpc.status).toBe(400);
      expect(await rpcError(notRpc)).toMatchObject({ code: -32600 });
    }
    const unsupported = await postMcp(legacy("1999-01-01", "tools/list"));
    expect(unsupported.status).toBe(400);
    const error = await rpcError(unsupported);
    for (const version of legacyVersions) expect(error.message).toContain(version);
  });

  test("error: a JSON array (a batch) is 400 with -32600 on every protocol version, and runs no tool", async () => {
    const before = await creditsUsed();
    const batches = [
      [modern("tools/call", { name: "svc_get_gas_metrics", arguments: {} }).body],
      ...legacyVersions.map((v) => [legacy(v, "tools/call", { name: "svc_get_gas_metrics", arguments: {} }).body]),
      [initialize("2025-03-26").body, legacy("2025-03-26", "tools/call", { name: "svc_get_gas_metrics", arguments: {} }, 2).body],
    ];
    for (const [i, batch] of batches.entries()) {
      const version = i === 0 ? "2026-07-28" : (legacyVersions[i - 1] ?? "2025-03-26");
      const res = await post("/mcp", batch, { "mcp-protocol-version": version, "x-api-key": apiKey });
      expect(res.status, version).toBe(400);
      expect(await rpcError(res), version).toMatchObject({ code: -32600, data: { error: "MCP_INVALID_MESSAGE" } });
    }
    expect(await creditsUsed()).toBe(before);
  });

  test("error: an Origin that is not allowed is 403; an allowed one and none pass", async () => {
    const evil = await postMcp(modern("server/discover"), { origin: "https://evil.example" });
    expect(evil.status).toBe(403);
    expect(await rpcError(evil)).toMatchObject({ data: { error: "MCP_ORIGIN_REJECTED" } });
    expect((await postMcp(modern("server/discover"), { origin: "https://agent.example" })).status).toBe(200);
    expect((await postMcp(modern("server/discover"), { origin: testOrigins.public })).status).toBe(200);
    expect((await fetch(`${service.origin}/sse`, { headers: { origin: "https://evil.example" } })).status).toBe(403);
    expect((await post("/messages?sessionId=x", {}, { origin: "https://evil.example" })).status).toBe(403);
  });

  test("error: Accept allowing neither JSON nor an event stream is 406 on both eras; */* and no Accept pass", async () => {
    for (const message of [modern("server/discover"), initialize("2025-06-18")]) {
      const res = await postMcp(message, { accept: "text/html" });
      expect(res.status).toBe(406);
    }
    expect((await postMcp(modern("server/discover"), { accept: "*/*" })).status).toBe(200);
    const none = await fetch(`${service.origin}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", ...modern("server/discover").headers },
      body: JSON.stringify(modern("server/discover").body),
    });
    expect(none.status).toBe(200);
  });

  test("error: a message over 64 KiB is 413", async () => {
    const res = await postMcp(modern("tools/call", { name: "svc_get_token_price", arguments: { symbol: "x".repeat(70_000) } }));
    expect(res.status).toBe(413);
  });
});

describe("GET and DELETE /mcp", () => {
  test("error: 405 with an Allow header (the endpoint is stateless: no listenable stream)", async () => {
    for (const method of ["GET", "DELETE"]) {
      const res = await fetch(`${service.origin}/mcp`, { method, headers: { accept: "text/event-stream" } });
      expect(res.status, method).toBe(405);
      expect(res.headers.get("allow"), method).toMatch(/POST/);
    }
  });
});

describe("legacy GET /sse and POST /messages", () => {
  test("default: the stream names its endpoint; a posted message is 200 with a JSON object and its reply travels on the stream", async () => {
    const abort = new AbortController();
    const stream = await fetch(`${service.origin}/sse`, { headers: { accept: "text/event-stream" }, signal: abort.signal });
    expect(stream.status).toBe(200);
    expect(stream.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const [first] = await readFrames(stream, (f) => f.startsWith("event: endpoint"));
    const endpoint = /data: (\S+)/.exec(first ?? "")?.[1] as string;
    expect(endpoint).toMatch(/^\/messages\?sessionId=[0-9a-f-]{36}$/);
    const accepted = await post(endpoint, initialize("2024-11-05").body);
    expect(accepted.status).toBe(200);
    expect(await accepted.json()).toEqual({ accepted: true });
    const frames = await readFrames(stream, (f) => f.includes('"id":1'));
    expect(frames.find((f) => f.includes('"id":1'))).toContain('"protocolVersion":"2024-11-05"');
    // Bad input on a live session: answered, and the session goes on.
    expect((await post(endpoint, "{oops")).status).toBe(400);
    const batch = await post(endpoint, [initialize("2024-11-05").body]);
    expect(batch.status).toBe(400);
    expect(await rpcError(batch)).toMatchObject({ code: -32600 });
    expect((await post(endpoint, { jsonrpc: "2.0", id: 2, method: "tools/list", params: {} })).status).toBe(200);
    expect((await readFrames(stream, (f) => f.includes('"id":2'))).join("\n")).toContain("svc_get_whale_signals");
    abort.abort();
  });

  test("default: the v2 client's SSE transport works too (list, a free call, a keyed call)", async () => {
    const client = await connectV2Sse(service.origin, { "x-api-key": apiKey });
    try {
      expect((await client.listTools()).tools).toHaveLength(routeTools.length);
      expect((await client.callTool({ name: "svc_get_service_status", arguments: {} })).structuredContent).toMatchObject({
        apiVersion: "2.2.0",
      });
      expect((await client.callTool({ name: "svc_get_gas_metrics", arguments: {} })).structuredContent).toMatchObject({ chainId: 8453 });
    } finally {
      await client.close();
    }
  });

  test("error: an unknown session is 404; beyond the configured streams GET /sse is 503, and a dropped stream frees its place", async () => {
    const unknown = await post("/messages?sessionId=00000000-0000-0000-0000-000000000000", initialize("2024-11-05").body);
    expect(unknown.status).toBe(404);
    expect(await rpcError(unknown)).toMatchObject({ data: { error: "MCP_SESSION_NOT_FOUND" } });
    const aborts = [new AbortController(), new AbortController(), new AbortController()];
    const open = await Promise.all(aborts.map((a) => fetch(`${service.origin}/sse`, { signal: a.signal })));
    expect(open.map((r) => r.status)).toEqual([200, 200, 200]);
    const full = await fetch(`${service.origin}/sse`);
    expect(full.status).toBe(503);
    expect(await full.json()).toMatchObject({ error: "MCP_STREAMS_EXHAUSTED" });
    aborts[0]?.abort();
    // The server sees the client go a moment later: asked again by rounds, not against a time bound.
    let reopened = 503;
    for (let round = 0; round < 100 && reopened === 503; round++) {
      const res = await fetch(`${service.origin}/sse`);
      reopened = res.status;
      await res.body?.cancel();
      if (reopened === 503) await new Promise((r) => setTimeout(r, 20));
    }
    expect(reopened).toBe(200);
    for (const a of aborts) a.abort();
  });
});

describe("discovery", () => {
  test("default: the server card lists the transports, the authentication headers and each tool with the input schema tools/list gives", async () => {
    const res = await fetch(`${service.origin}/.well-known/mcp/server-card.json`);
    expect(res.status).toBe(200);
    const card = (await res.json()) as {
      serverInfo: { name: string };
      transports: { type: string; url: string }[];
      authentication: { headers: { name: string }[]; x402Discovery: string };
      tools: { name: string; inputSchema: unknown; price?: unknown; x402Discovery?: { bazaar: unknown } }[];
    };
    expect(card.transports.map((t) => [t.type, t.url])).toEqual([
      ["streamable-http", `${testOrigins.public}/mcp`],
      ["sse", `${testOrigins.public}/sse`],
    ]);
    expect(card.authentication.headers.map((h) => h.name)).toEqual(["x-api-key", "Authorization", "PAYMENT-SIGNATURE"]);
    const list = (await (await postMcp(modern("tools/list"))).json()) as { result: { tools: { name: string; inputSchema: unknown }[] } };
    expect(card.tools.map((t) => t.name)).toEqual(list.result.tools.map((t) => t.name));
    for (const tool of card.tools) {
      const listed = list.result.tools.find((t) => t.name === tool.name);
      expect(tool.inputSchema, tool.name).toEqual(listed?.inputSchema);
      // Each paid tool carries x402's bazaar tool form, valid by the package's own validator.
      if (tool.price) {
        const bazaar = tool.x402Discovery?.bazaar as Parameters<typeof validateDiscoveryExtension>[0];
        expect(validateDiscoveryExtension(bazaar), tool.name).toEqual({ valid: true });
      } else expect(tool.x402Discovery, tool.name).toBeUndefined();
    }
    expect(card.tools.filter((t) => t.x402Discovery).map((t) => t.name)).toEqual(routeTools.filter((t) => t.payable).map((t) => t.name));
    expect(card.authentication.x402Discovery).toBe(`${testOrigins.public}/v1/x402/discovery`);
  });

  test("default: the OpenAPI document lists the MCP endpoints", async () => {
    const doc = (await (await service.app.request("/v1/openapi.json")).json()) as { paths: Record<string, Record<string, unknown>> };
    expect(Object.keys(doc.paths["/mcp"] ?? {}).sort()).toEqual(["get", "post"]);
    expect(Object.keys(doc.paths["/sse"] ?? {})).toEqual(["get"]);
    expect(Object.keys(doc.paths["/messages"] ?? {})).toEqual(["post"]);
    expect(Object.keys(doc.paths["/.well-known/mcp/server-card.json"] ?? {})).toEqual(["get"]);
    expect(Object.keys(doc.paths["/.well-known/mcp/server.json"] ?? {})).toEqual(["get"]);
  });
});

type RegistryEntry = {
  $schema: string;
  name: string;
  title: string;
  description: string;
  version: string;
  remotes: { type: string; url: string; headers: { name: string }[] }[];
  packages: { environmentVariables: { name: string; value?: string }[] }[];
};
type ServerCard = {
  serverInfo: { name: string; title: string; version: string };
  description: string;
  transports: { type: string; url: string }[];
  authentication: { headers: { name: string }[] };
};

describe("registry entry", () => {
  test("default: server.json is valid by the official MCP registry's schema (2025-12-11, kept in docs/schemas/) and lists both remotes and the stdio package", async () => {
    const res = await fetch(`${service.origin}/.well-known/mcp/server.json`);
    expect(res.status).toBe(200);
    const entry = (await res.json()) as RegistryEntry;
    const schema = JSON.parse(readFileSync(registrySchemaPath, "utf8")) as { $id: string };
    const ajv = new Ajv({ allErrors: true });
    ajv.addKeyword("example");
    addFormats(ajv);
    const valid = ajv.compile(schema);
    expect(valid(entry), ajv.errorsText(valid.errors)).toBe(true);
    expect(entry.$schema).toBe(schema.$id);
    // The validation is the schema's: the card's earlier 163-character description would have been refused.
    expect(valid({ ...entry, description: "d".repeat(101) })).toBe(false);

    expect(entry.remotes.map((r) => [r.type, r.url, r.headers.map((h) => h.name)])).toEqual([
      ["streamable-http", `${testOrigins.public}/mcp`, ["x-api-key"]],
      ["sse", `${testOrigins.public}/sse`, ["x-api-key"]],
    ]);
    const stdio = JSON.parse(readFileSync(stdioPackagePath, "utf8")) as { name: string; version: string; mcpName: string };
    expect(entry.name).toBe(stdio.mcpName);
    expect(entry.packages).toMatchObject([
      {
        registryType: "npm",
        identifier: stdio.name,
        version: stdio.version,
        runtimeHint: "npx",
        transport: { type: "stdio" },
      },
    ]);
    // The stdio command's own variables, pointed at this deployment (and its fallback host).
    const environment = entry.packages[0]?.environmentVariables ?? [];
    expect(environment.map((v) => v.name)).toEqual(Object.values(mcpEnv));
    expect(environment.filter((v) => v.value).map((v) => [v.name, v.value])).toEqual([
      [mcpEnv.baseUrl, testOrigins.public],
      [mcpEnv.fallbackUrl, testOrigins.fallback],
    ]);
  });

  test.each([
    ["the public origin", testOrigins.public, {}],
    ["the fallback host", testOrigins.fallback, { host: new URL(testOrigins.fallback).host }],
  ])(
    "behavior: reached through %s, server.json and the server card agree: title, version, description, and each endpoint's type and URL",
    async (_, origin, headers) => {
      const get = async <T>(path: string) => (await (await service.app.request(path, { headers })).json()) as T;
      const entry = await get<RegistryEntry>("/.well-known/mcp/server.json");
      const card = await get<ServerCard>("/.well-known/mcp/server-card.json");
      expect(entry.remotes.map((r) => [r.type, r.url])).toEqual(card.transports.map((t) => [t.type, t.url]));
      expect(card.transports.map((t) => t.url)).toEqual([`${origin}/mcp`, `${origin}/sse`]);
      expect([entry.title, entry.version, entry.description]).toEqual([card.serverInfo.title, card.serverInfo.version, card.description]);
      expect(entry.name.endsWith(`/${card.serverInfo.name}`)).toBe(true);
      const cardHeaders = card.authentication.headers.map((h) => h.name);
      for (const remote of entry.remotes) for (const { name } of remote.headers) expect(cardHeaders).toContain(name);
    },
  );
});
