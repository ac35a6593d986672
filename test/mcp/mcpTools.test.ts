import type { Address, Hex } from "viem";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { testClient, testManifest } from "../support/devnet";
import {
  clientKinds,
  connectClient,
  type McpTestClient,
  type McpTestService,
  proKey,
  routeTools,
  startMcpService,
  type ToolResult,
} from "./support";

/** This file signs as users[13] only (its key); users[12] pays in mcpPayment.test.ts. */
const manifest = testManifest();
const user = manifest.accounts.users[13] as { address: Address; privateKey: Hex };
const target = manifest.contracts.diamond as Address;
const chain = testClient(manifest);
/** The trade simulation's fixture taking 3% on buys and 7% on sells. */
const taxed = manifest.simulationTokens.find((f) => f.name === "buySellTax")?.address as Address;

/** Each tool with its arguments and the REST path answering the same call. */
const calls = [
  { name: "svc_audit_contract", arguments: { address: target }, path: `/v1/audit/${target}` },
  { name: "svc_get_gas_metrics", arguments: {}, path: "/v1/gas/fees" },
  { name: "svc_get_token_price", arguments: { symbol: "weth" }, path: "/v1/token/price/weth" },
  { name: "svc_get_dex_liquidity", arguments: {}, path: "/v1/dex/metrics" },
  { name: "svc_get_whale_signals", arguments: {}, path: "/v1/whales/signals" },
  { name: "svc_simulate_token_trade", arguments: { address: taxed }, path: `/v1/token/simulation/${taxed}` },
  { name: "svc_get_service_status", arguments: {}, path: "/v1/status" },
];

/** What differs between two reads of the same state: the time of the read, and whether it reused the first one's observation. */
const volatile = new Set(["originalRetrievalTime", "checkedAt", "retrievedAt", "latencyMs", "reused", "observationReused"]);
function stable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stable);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([k]) => !volatile.has(k))
        .map(([k, v]) => [k, stable(v)]),
    );
  }
  return value;
}

let service: McpTestService;
let apiKey: string;

/**
 * The tool's answer and its REST route's to the same call, made while the chain's head stayed: other test
 * files mine blocks meanwhile, and an answer read a block later differs in its provenance. The market
 * index's head is moved to the chain's first, so the index-backed routes are within their lag bound.
 */
async function answersAtOneHead(client: McpTestClient, call: (typeof calls)[number]): Promise<[ToolResult, Response]> {
  // Other files mine in bursts: a pause between attempts lets a burst pass.
  for (let attempt = 1; attempt <= 50; attempt++) {
    await service.syncIndexHead();
    const before = await chain.getBlockNumber({ cacheTime: 0 });
    const result = await client.callTool({ name: call.name, arguments: call.arguments });
    const rest = await service.app.request(call.path, { headers: { "x-api-key": apiKey } });
    if ((await chain.getBlockNumber({ cacheTime: 0 })) === before) return [result, rest];
    await new Promise((pause) => setTimeout(pause, 100));
  }
  throw new Error(`${call.name}: the chain's head moved during each of 50 attempts`);
}

beforeAll(async () => {
  service = await startMcpService(manifest);
  apiKey = await proKey(service, user);
}, 120_000);
afterAll(() => service?.stop());

describe.each(clientKinds)("MCP tools through the %s client", (kind) => {
  test("default: lists every tool with input and output schemas and read-only, open-world annotations", async () => {
    const client = await connectClient(kind, service.origin, { "x-api-key": apiKey });
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(routeTools.map((t) => t.name));
      expect(calls.map((c) => c.name).sort()).toEqual(routeTools.map((t) => t.name).sort());
      for (const tool of tools) {
        expect(tool.inputSchema, tool.name).toMatchObject({ type: "object" });
        expect(tool.outputSchema, tool.name).toMatchObject({ type: "object" });
        expect(tool.annotations, tool.name).toMatchObject({ readOnlyHint: true, openWorldHint: true });
      }
      const audit = tools.find((t) => t.name === "svc_audit_contract");
      expect(audit?.inputSchema).toMatchObject({ required: ["address"] });
    } finally {
      await client.close();
    }
  });

  test("default: each tool with a key answers what its REST route answers, as structuredContent with a text rendering", async () => {
    const client = await connectClient(kind, service.origin, { "x-api-key": apiKey });
    try {
      for (const call of calls) {
        const [result, rest] = await answersAtOneHead(client, call);
        expect(result.isError ?? false, `${call.name}: ${JSON.stringify(result.content)}`).toBe(false);
        expect(rest.status, call.path).toBe(200);
        expect(stable(result.structuredContent), call.name).toEqual(stable(await rest.json()));
        expect(result.content[0]?.text, call.name).toMatch(/\S/);
      }
    } finally {
      await client.close();
    }
  });

  test("error: bad arguments and service refusals are tool errors naming the problem; the session goes on", async () => {
    const client = await connectClient(kind, service.origin, { "x-api-key": apiKey });
    try {
      const badAddress = await client.callTool({ name: "svc_audit_contract", arguments: { address: "0x123" } });
      expect(badAddress.isError).toBe(true);
      expect(badAddress.structuredContent).toBeUndefined();
      expect(badAddress.content[0]?.text).toMatch(/address/i);
      const unknown = await client.callTool({ name: "svc_get_token_price", arguments: { symbol: "NOPE" } });
      expect(unknown.isError).toBe(true);
      expect(unknown.structuredContent).toBeUndefined();
      expect(unknown.content[0]?.text).toMatch(/^UNKNOWN_SYMBOL: /);
      const wrongKey = await connectClient(kind, service.origin, { "x-api-key": "svc_test_notakey" });
      try {
        const refused = await wrongKey.callTool({ name: "svc_get_gas_metrics", arguments: {} });
        expect(refused.isError).toBe(true);
        expect(refused.content[0]?.text).toMatch(/^INVALID_API_KEY: /);
      } finally {
        await wrongKey.close();
      }
      const after = await client.callTool({ name: "svc_get_service_status", arguments: {} });
      expect(after.isError ?? false).toBe(false);
    } finally {
      await client.close();
    }
  });
});

describe("credits", () => {
  const used = async () =>
    ((await (await service.app.request("/v1/keys/self", { headers: { "x-api-key": apiKey } })).json()) as { credits: { used: number } })
      .credits.used;

  test("behavior: a paid tool charges the key its route's credits as its REST route does; the status tool and a refused call charge none", async () => {
    const client = await connectClient("v2 pinned to 2026-07-28", service.origin, { authorization: `Bearer ${apiKey}` });
    try {
      await service.syncIndexHead();
      const before = await used();
      expect((await client.callTool({ name: "svc_get_dex_liquidity", arguments: {} })).isError ?? false).toBe(false);
      const afterTool = await used();
      expect(afterTool - before).toBe(1);
      expect((await service.app.request("/v1/dex/metrics", { headers: { "x-api-key": apiKey } })).status).toBe(200);
      const afterRest = await used();
      expect(afterRest - afterTool).toBe(1);
      const simulated = await client.callTool({ name: "svc_simulate_token_trade", arguments: { address: taxed } });
      expect(simulated.isError ?? false).toBe(false);
      expect(simulated.content[0]?.text).toMatch(/BUY_SMALL SUCCEEDED 300 bps, TRANSFER SUCCEEDED 0 bps, SELL_SMALL SUCCEEDED 700 bps/);
      expect((await used()) - afterRest).toBe(2);
      expect((await client.callTool({ name: "svc_get_service_status", arguments: {} })).isError ?? false).toBe(false);
      expect((await client.callTool({ name: "svc_get_token_price", arguments: { symbol: "NOPE" } })).isError).toBe(true);
      expect(await used()).toBe(afterRest + 2);
    } finally {
      await client.close();
    }
  });
});
