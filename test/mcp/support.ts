import { type ClientRequest, type IncomingMessage, request } from "node:http";
import type { AddressInfo } from "node:net";
import { PGlite } from "@electric-sql/pglite";
import { serve } from "@hono/node-server";
import { Client, StreamableHTTPClientTransport, SSEClientTransport as V2SseTransport } from "@modelcontextprotocol/client";
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport as V1SseTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StreamableHTTPClientTransport as V1HttpTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { type Address, type Hex, parseUnits } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import type { CreateAccessServicesParameters } from "../../api/access/createAccessServices";
import { type AppParameters, createApp } from "../../api/app";
import { servedRoutes } from "../../api/routes/routeList";
import type { AppStore } from "../../api/store/createAppStore";
import type { Manifest } from "../../devnet/manifest";
import { openBackend } from "../access/support";
import { testAccessServices } from "../support/access";
import { testAppParameters, testMarketParameters } from "../support/app";
import { devnetProvider } from "../support/devnet";
import { seedMarketIndex } from "../support/marketIndex";
import { testBatchSettlement, testFacilitator, testX402Service } from "../support/x402";
import { fundedKey } from "../x402/support";

/**
 * The app of the MCP tests, served on a loopback port (the clients speak real HTTP), with its own app store
 * (a throwaway Postgres database when DATABASE_URL is set, else PGlite) and payout address.
 */
export type McpTestService = {
  origin: string;
  app: ReturnType<typeof createApp>;
  store: AppStore;
  payTo: Address;
  /** Moves the market index's head to the chain's (other test files mine blocks meanwhile). */
  syncIndexHead(): Promise<void>;
  sql(text: string, params?: unknown[]): Promise<Record<string, unknown>[]>;
  stop(): Promise<void>;
};

export async function startMcpService(
  manifest: Manifest,
  overrides: Partial<AppParameters> = {},
  accessOverrides: Partial<CreateAccessServicesParameters> = {},
): Promise<McpTestService> {
  const backend = await openBackend(process.env.DATABASE_URL ? "postgres" : "pglite");
  const { store } = backend;
  const marketIndex = await seedMarketIndex(new PGlite(), manifest);
  const payTo = privateKeyToAccount(generatePrivateKey()).address;
  // Its own gas key: settlements from one key in two test files would race on its nonce.
  const x402 = testX402Service(manifest, store, {
    facilitator: testFacilitator(manifest, await fundedKey(manifest)),
    payTo,
    batchSettlement: testBatchSettlement(manifest),
  });
  const { access, keyRoutes } = testAccessServices(manifest, marketIndex.indexDb, { store, ...accessOverrides });
  const market = testMarketParameters([devnetProvider(manifest.rpcUrl)], marketIndex.indexDb, manifest.dexes);
  const app = createApp({ ...testAppParameters(manifest, marketIndex.indexDb, { access, keyRoutes, x402, market }), ...overrides });
  const server = await new Promise<ReturnType<typeof serve>>((started) => {
    const s = serve({ fetch: app.fetch, hostname: "127.0.0.1", port: 0 }, () => started(s));
  });
  // Node closes an idle kept-alive socket after 5 s; on a loaded machine a client could reuse it as it
  // closes (ECONNRESET, "fetch failed"). The tests' pauses between calls stay well under 60 s.
  (server as unknown as { keepAliveTimeout: number }).keepAliveTimeout = 60_000;
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    app,
    store,
    payTo,
    syncIndexHead: marketIndex.syncHead,
    sql: (text, params) => backend.sql(text, params) as Promise<Record<string, unknown>[]>,
    async stop() {
      await new Promise<void>((done) => {
        server.close(() => done());
        (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
      });
      await backend.close();
    },
  };
}

/**
 * A real key for `user`: a free key (challenge, personal_sign, claim) moved to the PRO tier with SQL, so
 * a test's dozens of calls fit its credits.
 */
export async function proKey(service: McpTestService, user: { address: Address; privateKey: Hex }): Promise<string> {
  const post = async (path: string, body: unknown) =>
    (
      await service.app.request(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })
    ).json();
  const { intent } = (await post("/v1/subscribe/free/challenge", { userWallet: user.address })) as {
    intent: { intentId: string; messageToSign: string };
  };
  const signature = await privateKeyToAccount(user.privateKey).signMessage({ message: intent.messageToSign });
  const { apiKey } = (await post("/v1/subscribe/free/claim", { intentId: intent.intentId, signature })) as { apiKey: string };
  await service.sql("UPDATE app.api_key SET tier = 'PRO', expires_at = now() + interval '31 days' WHERE wallet = $1", [
    user.address.toLowerCase(),
  ]);
  return apiKey;
}

/** The four clients the tests talk with, as real users' clients would. */
export const clientKinds = ["v2 pinned to 2026-07-28", "v2 default (2025)", "v1 Streamable HTTP", "v1 SSE (2024-11-05)"] as const;
export type ClientKind = (typeof clientKinds)[number];

/** The slice of a connected client the tests use (the v1 and v2 clients share it). */
export type McpTestClient = {
  listTools(): Promise<{ tools: { name: string; inputSchema: unknown; outputSchema?: unknown; annotations?: Record<string, unknown> }[] }>;
  callTool(params: { name: string; arguments?: Record<string, unknown>; _meta?: Record<string, unknown> }): Promise<ToolResult>;
  close(): Promise<void>;
};
export type ToolResult = {
  /** 2026-07-28: "complete", or x402's "payment_required" (with `paymentRequired`) for a client advertising org.x402/payment. */
  resultType?: string;
  paymentRequired?: unknown;
  isError?: boolean;
  content: { type: string; text?: string }[];
  structuredContent?: Record<string, unknown>;
  _meta?: Record<string, unknown>;
};

/**
 * The text block of a tool error that names its code ("CODE: message"): the first, or the second where the
 * first is an x402 PaymentRequired's JSON (x402's MCP transport puts it first).
 */
export function refusalText(result: { content: { text?: string }[] }): string {
  return result.content.map((block) => block.text ?? "").find((text) => /^[A-Z_]+: /.test(text)) ?? "";
}

/** Connects a client of `kind` to `origin`, sending `headers` on every request; a v2 client advertises `extensions`. */
export async function connectClient(
  kind: ClientKind,
  origin: string,
  headers: Record<string, string> = {},
  extensions?: Record<string, Record<string, never>>,
): Promise<McpTestClient> {
  const info = { name: "svc-test", version: "1.0.0" };
  const requestInit = { headers };
  const mcp = new URL("/mcp", origin);
  const sse = new URL("/sse", origin);
  if (kind === "v2 pinned to 2026-07-28" || kind === "v2 default (2025)") {
    const client = new Client(info, {
      ...(kind === "v2 pinned to 2026-07-28" ? { versionNegotiation: { mode: { pin: "2026-07-28" as const } } } : {}),
      ...(extensions ? { capabilities: { extensions } } : {}),
    });
    await client.connect(new StreamableHTTPClientTransport(mcp, { requestInit }));
    return client as unknown as McpTestClient;
  }
  const client = new V1Client(info);
  await client.connect(
    kind === "v1 SSE (2024-11-05)" ? new V1SseTransport(sse, { requestInit }) : new V1HttpTransport(mcp, { requestInit }),
  );
  return client as unknown as McpTestClient;
}

/** The v2 client over the legacy SSE transport (the other SSE client real users have). */
export async function connectV2Sse(origin: string, headers: Record<string, string> = {}): Promise<McpTestClient> {
  const client = new Client({ name: "svc-test", version: "1.0.0" });
  await client.connect(new V2SseTransport(new URL("/sse", origin), { requestInit: { headers } }));
  return client as unknown as McpTestClient;
}

export const usdcUnits = (usd: number) => parseUnits(String(usd), 6);

/** The MCP tools the route list declares: what tools/list must answer. */
export const routeTools = servedRoutes.flatMap((route) =>
  route.tool ? [{ name: route.tool.name, payable: route.access === "apiKeyOrX402" }] : [],
);

/** GET /sse on a socket of its own (from local address `from`, else the default), as a 2024-11-05 client opens it. */
export async function requestSseStream(origin: string, from?: string): Promise<{ req: ClientRequest; res: IncomingMessage }> {
  const req = request(new URL("/sse", origin), {
    agent: false,
    ...(from ? { localAddress: from } : {}),
    headers: { accept: "text/event-stream" },
  });
  const res = await new Promise<IncomingMessage>((resolve, reject) => req.on("response", resolve).on("error", reject).end());
  return { req, res };
}

/** Reads an SSE stream up to its endpoint event, then stops reading: the session's messages path. */
export function endpointOf(res: IncomingMessage): Promise<string> {
  return new Promise<string>((resolve) => {
    let text = "";
    const onData = (chunk: Buffer) => {
      text += chunk.toString("utf8");
      const match = /event: endpoint\ndata: (\S+)\n\n/.exec(text);
      if (match) {
        res.off("data", onData);
        resolve(match[1] as string);
      }
    };
    res.on("data", onData);
  });
}

/** A JSON-RPC `tools/list` request, as a raw client posts it. */
export const toolsList = (id: number) => ({ jsonrpc: "2.0", id, method: "tools/list", params: {} });

/** A JSON-RPC `initialize` of a 2024-11-05 (legacy SSE) client named `name`, as a raw client posts it. */
export const legacyInitialize = (name: string) => ({
  jsonrpc: "2.0",
  id: 0,
  method: "initialize",
  params: { protocolVersion: "2024-11-05", capabilities: {}, clientInfo: { name, version: "1" } },
});
