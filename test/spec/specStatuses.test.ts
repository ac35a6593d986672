import { PGlite } from "@electric-sql/pglite";
import { decodePaymentRequiredHeader } from "@x402/core/http";
import { drizzle } from "drizzle-orm/pglite";
import { type Address, parseEther, parseUnits } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createRateLimits } from "../../api/access/createRateLimits";
import { createApp } from "../../api/app";
import type { IndexDb } from "../../api/index/indexDb";
import type { IntentEnvelope, IssuedKey, PurchaseIntent } from "../../api/keys/records";
import { routeList } from "../../api/routes/routeList";
import { type AppStore, createAppStore } from "../../api/store/createAppStore";
import { baseUsdc } from "../../base/baseChain";
import { createDevnetClient } from "../../devnet/client";
import { accessApp, type Backend, mine, openBackend, post, testEthQuote } from "../access/support";
import { testAccessServices, unlimitedRates } from "../support/access";
import { testAppParameters, testMarketParameters } from "../support/app";
import { testManifest } from "../support/devnet";
import { seedMarketIndex } from "../support/marketIndex";
import { pendingSpecRoutes, specRoutes } from "./specRoutes";
import { omissions } from "./specTableDecisions";

type App = ReturnType<typeof createApp>;
const manifest = testManifest();
/** A wallet of this file's own, funded with devnet ETH here: no other file sends from it. */
const buyerKey = generatePrivateKey();
const buyer = privateKeyToAccount(buyerKey);
const buyerClient = createDevnetClient(manifest.rpcUrl, buyerKey);
const stranger = privateKeyToAccount(generatePrivateKey());
const operatorToken = "o".repeat(32);
const fixture = manifest.contracts.plainToken as Address;
const dead = [{ name: "down", url: "http://127.0.0.1:1", trusted: true }];
const get = (app: App, path: string, headers: Record<string, string> = {}) => app.request(path, { headers });
const sign = (message: string, account = buyer) => account.signMessage({ message });

let backend: Backend;
let closedStore: AppStore;
/** Apps over one store: normal, with budgets of one request a minute, with no chain, with a closed store. */
let apps: { ok: App; limited: App; noChain: App; noStore: App; noOperator: App; market: App };
/** The market index the market routes answer from (written from the chain's reads); its head follows the chain's. */
let marketIndex: Awaited<ReturnType<typeof seedMarketIndex>>;
let freeKey: string;
let paidKey: string;

async function challenge(app: App, path: "/v1/subscribe/free/challenge" | "/v1/keys/recovery/challenge", wallet: Address) {
  return ((await (await post(app, path, { userWallet: wallet })).json()) as IntentEnvelope).intent;
}

/** Buys a STARTER key with the exact wei of its intent, from `buyer`, with 3 confirmations. */
async function buyWithEth(app: App): Promise<Response> {
  const res = await post(app, "/v1/subscribe/intents", { tier: "STARTER", userWallet: buyer.address });
  const { intent } = (await res.json()) as PurchaseIntent;
  const hash = await buyerClient.sendTransaction({ to: manifest.payoutAddress, value: BigInt(intent.eth?.amountWei as string) });
  await buyerClient.waitForTransactionReceipt({ hash });
  await mine(manifest, 3);
  return post(app, "/v1/subscribe/crypto", { intentId: intent.intentId, signature: await sign(intent.messageToSign), txHash: hash });
}

beforeAll(async () => {
  backend = await openBackend("pglite");
  const closed = createAppStore({ kind: "pglite", directory: "memory://" });
  await closed.ready;
  await closed.close();
  closedStore = closed;
  const base = { ethQuote: testEthQuote, operatorBootstrapToken: operatorToken };
  const limits = createRateLimits({ perMinute: { ...unlimitedRates, PUBLIC: 1, FREE: 1 } });
  marketIndex = await seedMarketIndex(new PGlite(), manifest);
  apps = {
    market: createApp(
      testAppParameters(manifest, marketIndex.indexDb, testAccessServices(manifest, backend.indexDb, { store: backend.store, ...base })),
    ),
    ok: accessApp(manifest, backend, base).app,
    limited: accessApp(manifest, backend, { ...base, rateLimits: limits }).app,
    noChain: createApp(
      testAppParameters(manifest, backend.indexDb, {
        ...testAccessServices(manifest, backend.indexDb, { store: backend.store, ...base, providers: dead }),
        capability: { providers: dead, chainId: 8453, samples: [] },
        market: testMarketParameters(dead, marketIndex.indexDb, manifest.dexes),
      }),
    ),
    noStore: accessApp(manifest, { ...backend, store: closed }, base).app,
    noOperator: accessApp(manifest, backend).app,
  };
  await buyerClient.setBalance({ address: buyer.address, value: parseEther("10") });
  const free = await challenge(apps.ok, "/v1/subscribe/free/challenge", buyer.address);
  const claimed = await post(apps.ok, "/v1/subscribe/free/claim", { intentId: free.intentId, signature: await sign(free.messageToSign) });
  freeKey = ((await claimed.json()) as IssuedKey).apiKey as string;
}, 120_000);
afterAll(() => backend.close());

const key = () => ({ "x-api-key": freeKey });
const bad = { "x-api-key": "svc_test_1111111111111111111111111111111111111111111" };
const preflight = (app: App, headers: Record<string, string>, body: unknown = { chainId: 8453, to: fixture, data: "0x18160ddd" }) =>
  post(app, "/v1/transaction/preflight", body, headers);
/** Sends `request` twice on the limited app: the second is over its budget of one a minute. */
const twice = async (request: (app: App) => Response | Promise<Response>) => {
  await request(apps.limited);
  return request(apps.limited);
};

/** A market route's statuses: from the index at the chain's head, without a credential, with a wrong key, flooded, with no chain. */
function marketProducers(path: string): Record<number, () => Promise<Response>> {
  return {
    200: async () => {
      await marketIndex.syncHead();
      return get(apps.market, path, { "x-api-key": paidKey });
    },
    401: async () => get(apps.market, path, bad),
    402: async () => get(apps.market, path),
    429: () => twice((app) => get(app, path, key())),
    503: async () => get(apps.noChain, path, key()),
  };
}

/** How each status the spec lists for a built route is produced, route by route (in the order they run). */
const producers: Record<string, Record<number, () => Response | Promise<Response>>> = {
  "GET /v1/status": {
    200: () => get(apps.ok, "/v1/status"),
    503: async () => {
      // Both stores closed and no provider: persistence and RPC unreachable.
      const index = new PGlite();
      await index.close();
      const status = { indexDb: drizzle(index) as unknown as IndexDb, appStore: closedStore, payoutAddress: null, providers: dead };
      const deps = testAppParameters(manifest, backend.indexDb);
      return createApp({ ...deps, status: { ...deps.status, ...status } }).request("/v1/status");
    },
  },
  "GET /v1/stats": {
    200: () => get(apps.ok, "/v1/stats"),
    401: () => get(apps.ok, "/v1/stats?bucket=test"),
    429: () => twice((app) => get(app, "/v1/stats")),
  },
  "POST /v1/events": {
    202: () => post(apps.ok, "/v1/events", { event: "pageViewed", page: "home" }),
    400: () => post(apps.ok, "/v1/events", { event: "pageViewed", page: "home", referrer: "https://example.com" }),
    429: () => twice((app) => post(app, "/v1/events", { event: "pageViewed", page: "home" })),
  },
  "GET /v1/plans": { 200: () => get(apps.ok, "/v1/plans") },
  "GET /v1/samples": { 200: () => get(apps.ok, "/v1/samples") },
  "GET /v1/sample": {
    200: () => get(apps.ok, "/v1/sample?name=transaction-preflight"),
    404: () => get(apps.ok, "/v1/sample?name=gas-price"),
  },
  "GET /v1/demo/audit/{address}": {
    200: () => get(apps.ok, `/v1/demo/audit/${fixture}`),
    400: () => get(apps.ok, "/v1/demo/audit/0x1234"),
    503: () => get(apps.noChain, `/v1/demo/audit/${fixture}`),
  },
  "GET /v1/operator/gateway-proxy-digest": {
    200: () =>
      get(apps.ok, "/v1/operator/gateway-proxy-digest", {
        "x-operator-bootstrap": operatorToken,
        "x-gateway-proxy-secret": "s",
        "x-gateway-user": "u",
      }),
    400: () => get(apps.ok, "/v1/operator/gateway-proxy-digest", { "x-operator-bootstrap": operatorToken, "x-gateway-user": "u" }),
    401: () => get(apps.ok, "/v1/operator/gateway-proxy-digest", { "x-operator-bootstrap": "wrong", "x-gateway-proxy-secret": "s" }),
    404: () => get(apps.noOperator, "/v1/operator/gateway-proxy-digest"),
  },
  "POST /v1/subscribe/free/challenge": {
    200: () => post(apps.ok, "/v1/subscribe/free/challenge", { userWallet: stranger.address }),
    400: () => post(apps.ok, "/v1/subscribe/free/challenge", { userWallet: "0x12" }),
    429: () => twice((app) => post(app, "/v1/subscribe/free/challenge", { userWallet: stranger.address })),
    503: () => post(apps.noStore, "/v1/subscribe/free/challenge", { userWallet: stranger.address }),
  },
  "POST /v1/subscribe/free/claim": {
    200: async () => {
      const i = await challenge(apps.ok, "/v1/subscribe/free/challenge", stranger.address);
      return post(apps.ok, "/v1/subscribe/free/claim", { intentId: i.intentId, signature: await sign(i.messageToSign, stranger) });
    },
    400: () => post(apps.ok, "/v1/subscribe/free/claim", { intentId: "int_000000000000000000000000", signature: `0x${"11".repeat(65)}` }),
    401: async () => {
      const i = await challenge(apps.ok, "/v1/subscribe/free/challenge", stranger.address);
      return post(apps.ok, "/v1/subscribe/free/claim", { intentId: i.intentId, signature: await sign(i.messageToSign, buyer) });
    },
    409: async () => {
      const i = await challenge(apps.ok, "/v1/subscribe/free/challenge", buyer.address);
      return post(apps.ok, "/v1/subscribe/free/claim", { intentId: i.intentId, signature: await sign(i.messageToSign) });
    },
    429: () =>
      twice((app) =>
        post(app, "/v1/subscribe/free/claim", { intentId: "int_000000000000000000000000", signature: `0x${"11".repeat(65)}` }),
      ),
    503: () =>
      post(apps.noStore, "/v1/subscribe/free/claim", { intentId: "int_000000000000000000000000", signature: `0x${"11".repeat(65)}` }),
  },
  "POST /v1/subscribe/intents": {
    200: () => post(apps.ok, "/v1/subscribe/intents", { tier: "STARTER", userWallet: buyer.address }),
    400: () => post(apps.ok, "/v1/subscribe/intents", { tier: "GOLD", userWallet: buyer.address }),
    401: () => post(apps.ok, "/v1/subscribe/intents", { tier: "STARTER", userWallet: buyer.address, renewExistingKey: true }),
    429: () => twice((app) => post(app, "/v1/subscribe/intents", { tier: "STARTER", userWallet: buyer.address })),
    503: () => post(apps.noStore, "/v1/subscribe/intents", { tier: "STARTER", userWallet: buyer.address }),
  },
  "POST /v1/subscribe/crypto": {
    200: async () => {
      const res = await buyWithEth(apps.ok);
      paidKey = ((await res.clone().json()) as IssuedKey).apiKey as string;
      return res;
    },
    400: () =>
      post(apps.ok, "/v1/subscribe/crypto", {
        intentId: "int_000000000000000000000000",
        signature: `0x${"11".repeat(65)}`,
        txHash: `0x${"ab".repeat(32)}`,
      }),
    429: () =>
      twice((app) =>
        post(app, "/v1/subscribe/crypto", {
          intentId: "int_000000000000000000000000",
          signature: `0x${"11".repeat(65)}`,
          txHash: `0x${"ab".repeat(32)}`,
        }),
      ),
    503: () =>
      post(apps.noStore, "/v1/subscribe/crypto", {
        intentId: "int_000000000000000000000000",
        signature: `0x${"11".repeat(65)}`,
        txHash: `0x${"ab".repeat(32)}`,
      }),
  },
  "GET /v1/audit/{address}": {
    200: () => get(apps.ok, `/v1/audit/${fixture}`, key()),
    400: () => get(apps.ok, "/v1/audit/0x1234", key()),
    401: () => get(apps.ok, `/v1/audit/${fixture}`, bad),
    402: () => get(apps.ok, `/v1/audit/${fixture}`),
    405: () => apps.ok.request(`/v1/audit/${fixture}`, { method: "DELETE" }),
    429: () => twice((app) => get(app, `/v1/audit/${fixture}`, key())),
    503: () => get(apps.noChain, `/v1/audit/${fixture}`, key()),
  },
  "POST /v1/transaction/preflight": {
    200: () => preflight(apps.ok, key()),
    400: () => preflight(apps.ok, key(), { chainId: 1, to: fixture }),
    401: () => preflight(apps.ok, {}),
    402: async () => {
      await backend.sql("UPDATE app.api_key SET expires_at = now() - interval '1 day' WHERE tier <> 'FREE'");
      const res = await preflight(apps.ok, { "x-api-key": paidKey });
      await backend.sql("UPDATE app.api_key SET expires_at = now() + interval '31 days' WHERE tier <> 'FREE'");
      return res;
    },
    405: () => get(apps.ok, "/v1/transaction/preflight", key()),
    429: () => twice((app) => preflight(app, key())),
    503: () => preflight(apps.noChain, key()),
  },
  "GET /v1/security/score/{address}": {
    200: () => get(apps.ok, `/v1/security/score/${fixture}`, key()),
    400: () => get(apps.ok, "/v1/security/score/0x1234", key()),
    401: () => get(apps.ok, `/v1/security/score/${fixture}`, bad),
    402: () => get(apps.ok, `/v1/security/score/${fixture}`),
    429: () => twice((app) => get(app, `/v1/security/score/${fixture}`, key())),
    503: () => get(apps.noChain, `/v1/security/score/${fixture}`, key()),
  },
  "GET /v1/dex/metrics": marketProducers("/v1/dex/metrics"),
  "GET /v1/token/price/{symbol}": {
    ...marketProducers("/v1/token/price/WETH"),
    404: () => get(apps.market, "/v1/token/price/PEPE", key()),
  },
  "GET /v1/whales/signals": marketProducers("/v1/whales/signals"),
  "GET /v1/gas/fees": {
    // The paid key: the free key's ten a day are needed by the 429s.
    200: () => get(apps.ok, "/v1/gas/fees", { "x-api-key": paidKey }),
    401: () => get(apps.ok, "/v1/gas/fees", bad),
    402: () => get(apps.ok, "/v1/gas/fees"),
    429: () => twice((app) => get(app, "/v1/gas/fees", key())),
    503: () => get(apps.noChain, "/v1/gas/fees", key()),
  },
  "GET /v1/keys/self": {
    200: () => get(apps.ok, "/v1/keys/self", key()),
    401: () => get(apps.ok, "/v1/keys/self"),
    429: () => twice((app) => get(app, "/v1/keys/self", key())),
    503: () => get(apps.noStore, "/v1/keys/self", key()),
  },
  "POST /v1/keys/revoke": {
    // A key of its own: revoking the shared free key would change every later answer.
    200: async () => {
      const owner = privateKeyToAccount(generatePrivateKey());
      const i = await challenge(apps.ok, "/v1/subscribe/free/challenge", owner.address);
      const claimed = await post(apps.ok, "/v1/subscribe/free/claim", {
        intentId: i.intentId,
        signature: await sign(i.messageToSign, owner),
      });
      const own = ((await claimed.json()) as IssuedKey).apiKey as string;
      return post(apps.ok, "/v1/keys/revoke", { confirm: true }, { "x-api-key": own });
    },
    400: () => post(apps.ok, "/v1/keys/revoke", { confirm: false }, key()),
    401: () => post(apps.ok, "/v1/keys/revoke", { confirm: true }),
    429: () => twice((app) => post(app, "/v1/keys/revoke", { confirm: false }, key())),
    503: () => post(apps.noStore, "/v1/keys/revoke", { confirm: true }, key()),
  },
  "POST /v1/keys/recovery/challenge": {
    202: () => post(apps.ok, "/v1/keys/recovery/challenge", { userWallet: buyer.address }),
    400: () => post(apps.ok, "/v1/keys/recovery/challenge", { userWallet: "0x12" }),
    429: () => twice((app) => post(app, "/v1/keys/recovery/challenge", { userWallet: buyer.address })),
    503: () => post(apps.noStore, "/v1/keys/recovery/challenge", { userWallet: buyer.address }),
  },
  "POST /v1/keys/recovery/claim": {
    200: async () => {
      const i = await challenge(apps.ok, "/v1/keys/recovery/challenge", buyer.address);
      const res = await post(apps.ok, "/v1/keys/recovery/claim", { intentId: i.intentId, signature: await sign(i.messageToSign) });
      paidKey = ((await res.clone().json()) as IssuedKey).apiKey as string;
      return res;
    },
    400: () => post(apps.ok, "/v1/keys/recovery/claim", { intentId: "int_000000000000000000000000", signature: `0x${"11".repeat(65)}` }),
    401: async () => {
      const i = await challenge(apps.ok, "/v1/keys/recovery/challenge", buyer.address);
      return post(apps.ok, "/v1/keys/recovery/claim", { intentId: i.intentId, signature: await sign(i.messageToSign, stranger) });
    },
    409: async () => {
      const i = await challenge(apps.ok, "/v1/keys/recovery/challenge", stranger.address);
      return post(apps.ok, "/v1/keys/recovery/claim", { intentId: i.intentId, signature: await sign(i.messageToSign, stranger) });
    },
    429: () =>
      twice((app) => post(app, "/v1/keys/recovery/claim", { intentId: "int_000000000000000000000000", signature: `0x${"11".repeat(65)}` })),
    503: () =>
      post(apps.noStore, "/v1/keys/recovery/claim", { intentId: "int_000000000000000000000000", signature: `0x${"11".repeat(65)}` }),
  },
};

describe("every status the spec's endpoint table lists, produced for real", () => {
  test("behavior: each built route answers each of its listed statuses (less the documented omissions)", async () => {
    const pending = new Set<string>(pendingSpecRoutes.map((r) => r.route));
    let listed = 0;
    let produced = 0;
    let challenges = 0;
    for (const { route, statuses } of specRoutes) {
      if (pending.has(route)) continue;
      for (const status of statuses) {
        listed += 1;
        if ((omissions[route] ?? []).some((o) => o.status === status)) continue;
        const produce = producers[route]?.[status];
        expect(produce, `${route} ${status}: no way to produce it`).toBeDefined();
        const res = await (produce as () => Response | Promise<Response>)();
        expect(res.status, `${route} ${status}: ${await res.clone().text()}`).toBe(status);
        // Every error answers the one error shape (the status route's 503 answers its Status record).
        if (status >= 400 && route !== "GET /v1/status") {
          expect(await res.clone().json(), `${route} ${status}`).toMatchObject({ error: expect.any(String), message: expect.any(String) });
        }
        // A payable route's 402 without a credential is the spec's x402 v2 challenge, at the route's price.
        const payable = routeList.find((r) => r.name === route && r.access === "apiKeyOrX402");
        if (status === 402 && payable) {
          expect(await res.json(), route).toMatchObject({ error: "PAYMENT_REQUIRED" });
          const challenge = decodePaymentRequiredHeader(res.headers.get("payment-required") ?? "");
          expect(challenge, route).toMatchObject({
            x402Version: 2,
            accepts: [
              {
                scheme: "exact",
                network: "eip155:8453",
                amount: parseUnits(String(payable.x402PriceUsd), 6).toString(),
                asset: baseUsdc,
                payTo: manifest.payoutAddress,
              },
            ],
          });
          challenges += 1;
        }
        produced += 1;
      }
    }
    console.info(
      `[spec statuses] produced ${produced} of the ${listed} statuses the spec lists for built routes (${listed - produced} documented omissions); ${challenges} payable routes' 402 carried their x402 challenge`,
    );
    // The spec's payable routes; ours beyond its table (the trade simulation) are checked in test/x402/payPerCall.devnet.test.ts.
    const inSpec = new Set<string>(specRoutes.map((r) => r.route));
    expect(challenges).toBe(routeList.filter((r) => r.access === "apiKeyOrX402" && inSpec.has(r.name) && !pending.has(r.name)).length);
  }, 180_000);
});
