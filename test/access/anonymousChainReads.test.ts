import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { decodePaymentRequiredHeader, encodePaymentSignatureHeader } from "@x402/core/http";
import type { PaymentPayload, PaymentRequirements } from "@x402/core/types";
import { type Address, type Hex, serializeErc6492Signature } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createRateLimits } from "../../api/access/createRateLimits";
import { createApp } from "../../api/app";
import type { RpcProvider } from "../../api/chain/providers";
import { walletProofReadsPerProvider } from "../../api/keys/createWalletVerifier";
import type { IntentEnvelope } from "../../api/keys/records";
import { paymentReadsPerProvider } from "../../api/payments/readPaymentTransaction";
import { routes } from "../../api/routes/routeList";
import { verificationReads } from "../../api/x402/createInProcessFacilitator";
import { payerFundsOnChain, payerFundsReadsPerProvider } from "../../api/x402/readPayerFunds";
import { baseUsdc } from "../../base/baseChain";
import { createDevnetClient } from "../../devnet/client";
import { refusalText } from "../mcp/support";
import { testAccessServices, unlimitedRates } from "../support/access";
import { testAppParameters } from "../support/app";
import { devnetProvider, publicDevnetProvider, testClient, testManifest } from "../support/devnet";
import { deployOwnedWalletContract } from "../support/ownedWallet";
import { type RpcProxy, startRpcProxy } from "../support/rpcProxy";
import { signedPayment } from "../support/signedPayment";
import { rpcUrlsOf, testFacilitator, testX402Service } from "../support/x402";
import { committedPayer, fundedKey } from "../x402/support";
import { type Backend, mine, openBackend } from "./support";

/**
 * The RPC reads an outsider can cause on each anonymous route that reads the chain before it grants
 * anything, counted by real RPC proxies in front of the devnet (a path per provider): the costliest
 * request it can choose stays within the route's named bound per provider, and the request after its
 * address's budget is 429 with Retry-After and reads nothing. A read is one JSON-RPC request (each of a
 * batch), of any method. This file signs with fresh keys and deploys from a funded fresh key.
 */
const manifest = testManifest();
/** The x402 app's X402_PAYER_AUTHORIZATION_READS here: small, so a payer with more payments in flight is cheap to set up. */
const authorizationReads = 4;
/** The payer of the committed-balance case: this many of its payments are in flight (more than `authorizationReads`). */
const inFlight = authorizationReads + 8;
const gasPath = routes.gasFees.path;

let backend: Backend;
/** The proxies every provider of a layout is reached through (their counts together are the reads). */
let current: RpcProxy;
let lagging: RpcProxy;
/** An ERC-1271 wallet (deployed) and its owner's key: a smart wallet whose valid signature costs a call. */
let smartWallet: Address;
let smartWalletOwner: Hex;
/** A mined transaction that pays nobody we know: the costliest hash to send (found, then read with its block). */
let minedTx: Hex;

beforeAll(async () => {
  [current, lagging, backend] = await Promise.all([startRpcProxy(manifest.rpcUrl), startRpcProxy(manifest.rpcUrl), openBackend("pglite")]);
  smartWalletOwner = generatePrivateKey();
  const deployer = createDevnetClient(manifest.rpcUrl, await fundedKey(manifest));
  smartWallet = await deployOwnedWalletContract(deployer, "OwnedWallet", [privateKeyToAccount(smartWalletOwner).address]);
  const block = await testClient(manifest).getBlock({ blockTag: "latest" });
  minedTx = block.transactions[0] as Hex;
}, 120_000);
afterAll(async () => {
  await Promise.all([current?.stop(), lagging?.stop()]);
  await backend?.close();
});

/** Reads through both proxies so far, by method. */
async function readCounts(): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const proxy of [current, lagging]) {
    for (const [method, n] of Object.entries(await proxy.counts())) counts[method] = (counts[method] ?? 0) + n;
  }
  return counts;
}

/** What `work` answered, and the reads it caused (in all, and by method). */
async function counted(work: () => Promise<Response>) {
  const before = await readCounts();
  const res = await work();
  const after = await readCounts();
  const byMethod = Object.fromEntries(
    Object.entries(after).flatMap(([method, n]) => (n > (before[method] ?? 0) ? [[method, n - (before[method] ?? 0)]] : [])),
  );
  return { res, reads: Object.values(byMethod).reduce((sum: number, n) => sum + (n as number), 0), byMethod };
}

type Layout = { name: string; providers: () => Promise<RpcProvider[]> };

/** Where the providers of each layout are: a trusted primary alone, or three public ones with one a block behind (its pin reads the others' block too). */
const layouts: Layout[] = [
  { name: "a trusted primary", providers: async () => [devnetProvider(`${current.url}/primary`, "primary")] },
  {
    name: "three public providers, one a block behind",
    providers: async () => {
      // A block past this file's deployment, so that the lagging provider's head holds it.
      await mine(manifest, 1);
      await lagging.holdHead(Number(await testClient(manifest).getBlockNumber({ cacheTime: 0 })) - 1);
      return [
        publicDevnetProvider(`${current.url}/public-1`, "public-1"),
        publicDevnetProvider(`${current.url}/public-2`, "public-2"),
        publicDevnetProvider(`${lagging.url}/public-3`, "public-3"),
      ];
    },
  },
];

/**
 * The API over `providers` (its claims, x402 and demo read through them), on a loopback port, with
 * `perMinute` requests per client address (PUBLIC_REQUESTS_PER_MINUTE); x-forwarded-for names the client.
 */
async function serveOver(providers: RpcProvider[], perMinute = 1e6) {
  const { access, keyRoutes } = testAccessServices(manifest, backend.indexDb, {
    store: backend.store,
    providers,
    rateLimits: createRateLimits({ perMinute: { ...unlimitedRates, PUBLIC: perMinute } }),
    clientIpHeader: "x-forwarded-for",
    trustedProxies: ["127.0.0.1"],
  });
  const payerFunds = payerFundsOnChain({ providers, chainId: 8453, token: baseUsdc, maxAuthorizationReads: authorizationReads });
  const gasKey = await fundedKey(manifest);
  const x402 = testX402Service(
    manifest,
    backend.store,
    {
      facilitator: testFacilitator(manifest, gasKey, rpcUrlsOf(providers)),
      readPayerFunds: payerFunds,
    },
    providers,
  );
  const deps = testAppParameters(manifest, backend.indexDb, { access, keyRoutes, x402 });
  const app = createApp({ ...deps, capability: { ...deps.capability, providers } });
  const server = await new Promise<ReturnType<typeof serve>>((started) => {
    const s = serve({ fetch: app.fetch, hostname: "127.0.0.1", port: 0 }, () => started(s));
  });
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const request = (path: string, from: string, init: RequestInit = {}) =>
    fetch(`${origin}${path}`, { ...init, headers: { "x-forwarded-for": from, ...(init.headers as Record<string, string>) } });
  return {
    providerCount: providers.length,
    post: (path: string, body: unknown, from: string) =>
      request(path, from, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
    get: (path: string, from: string, headers: Record<string, string> = {}) => request(path, from, { headers }),
    /** A 2026-07-28 MCP tools/call of `tool` carrying `headers` (a PAYMENT-SIGNATURE). */
    callTool: (tool: string, from: string, headers: Record<string, string>) =>
      request("/mcp", from, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json",
          "mcp-protocol-version": "2026-07-28",
          "mcp-method": "tools/call",
          "mcp-name": tool,
          ...headers,
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "tools/call",
          params: {
            name: tool,
            arguments: {},
            _meta: {
              "io.modelcontextprotocol/protocolVersion": "2026-07-28",
              "io.modelcontextprotocol/clientInfo": { name: "outsider", version: "1" },
              "io.modelcontextprotocol/clientCapabilities": {},
            },
          },
        }),
      }),
    stop: () =>
      new Promise<void>((done) => {
        server.close(() => done());
        (server as unknown as { closeAllConnections(): void }).closeAllConnections();
      }),
  };
}
type Served = Awaited<ReturnType<typeof serveOver>>;

let setups = 0;
/** A client address of its own for each setup request, so that none spends an attacker's budget (or another's). */
const setupAddress = () => `198.51.${100 + Math.floor(setups / 250)}.${1 + (setups++ % 250)}`;

/** A fresh challenge at `path` (`body` names the wallet), asked from a setup address. */
async function challengeFor(app: Served, path: string, body: Record<string, unknown>) {
  const res = await app.post(path, body, setupAddress());
  expect(res.status, await res.clone().text()).toBeLessThan(300);
  return ((await res.json()) as IntentEnvelope).intent;
}

/** A signature for `message` by a key that is not the wallet's. */
const strangerSignature = (message: string) => privateKeyToAccount(generatePrivateKey()).signMessage({ message });

/** The costliest signed-challenge claims: what a signature that is not the wallet's own costs to refuse, and the own one. */
async function walletClaims(app: Served, from: string) {
  const victim = privateKeyToAccount(generatePrivateKey()).address;
  const free = await challengeFor(app, routes.freeChallenge.path, { userWallet: victim });
  const smart = await challengeFor(app, routes.freeChallenge.path, { userWallet: smartWallet });
  const recovery = await challengeFor(app, routes.recoveryChallenge.path, { userWallet: victim });
  const wrong = await strangerSignature(free.messageToSign);
  const wrapped = serializeErc6492Signature({ address: smartWallet, data: "0x1234", signature: wrong });
  const claim = (path: string, intentId: string, signature: Hex) => () => app.post(path, { intentId, signature }, from);
  return {
    refused: [
      claim(routes.freeClaim.path, free.intentId, wrong),
      claim(routes.freeClaim.path, free.intentId, wrapped),
      claim(routes.freeClaim.path, smart.intentId, await strangerSignature(smart.messageToSign)),
      claim(routes.recoveryClaim.path, recovery.intentId, await strangerSignature(recovery.messageToSign)),
    ],
    async own() {
      const owner = privateKeyToAccount(generatePrivateKey());
      const intent = await challengeFor(app, routes.freeChallenge.path, { userWallet: owner.address });
      return claim(routes.freeClaim.path, intent.intentId, await owner.signMessage({ message: intent.messageToSign }));
    },
  };
}

/** The costliest crypto claims: a valid signature (an EOA's, a smart wallet's) with a hash that is no payment of it (unknown, or mined). */
async function cryptoClaims(app: Served, from: string) {
  const buyer = privateKeyToAccount(generatePrivateKey());
  const eoa = await challengeFor(app, routes.purchaseIntent.path, { tier: "STARTER", userWallet: buyer.address });
  const smart = await challengeFor(app, routes.purchaseIntent.path, { tier: "STARTER", userWallet: smartWallet });
  const eoaSignature = await buyer.signMessage({ message: eoa.messageToSign });
  const smartSignature = await privateKeyToAccount(smartWalletOwner).signMessage({ message: smart.messageToSign });
  const claim = (intentId: string, signature: Hex, txHash: Hex) => () =>
    app.post(routes.cryptoClaim.path, { intentId, signature, txHash }, from);
  return [
    claim(eoa.intentId, eoaSignature, `0x${"ab".repeat(32)}`),
    claim(eoa.intentId, eoaSignature, minedTx),
    claim(smart.intentId, smartSignature, minedTx),
  ];
}

/** The gas route's x402 terms, as its challenge states them. */
async function gasTerms(app: Served): Promise<PaymentRequirements> {
  const res = await app.get(gasPath, setupAddress());
  return decodePaymentRequiredHeader(res.headers.get("payment-required") as string).accepts[0] as PaymentRequirements;
}

/** The costliest payments before one is accepted: forged, a smart wallet's, an unfunded one, and a committed payer's. */
async function refusedPayments(app: Served, from: string) {
  const terms = await gasTerms(app);
  const stranger = generatePrivateKey();
  const forged = await signedPayment(terms, stranger, {}, privateKeyToAccount(generatePrivateKey()).address);
  const wrapped = encodePaymentSignatureHeader({
    ...forged.payload,
    payload: {
      ...forged.payload.payload,
      signature: serializeErc6492Signature({ address: smartWallet, data: "0x1234", signature: forged.payload.payload.signature as Hex }),
    },
  } as PaymentPayload);
  const committed = await committedPayer(manifest, backend.store, terms, inFlight);
  const pay = (header: string) => () => app.get(gasPath, from, { "payment-signature": header });
  return {
    refused: [
      pay(forged.header),
      pay((await signedPayment(terms, stranger, {}, smartWallet)).header),
      pay(wrapped),
      pay((await signedPayment(terms, generatePrivateKey())).header),
      pay((await signedPayment(terms, smartWalletOwner, {}, smartWallet)).header),
      pay((await signedPayment(terms, committed)).header),
    ],
    /** A further payment of the committed payer, each time a new authorization. */
    committed: async () => (await signedPayment(terms, committed)).header,
  };
}

/** The most reads one x402 admission may cause, with `providers` providers. */
const x402Bound = (providers: number) => verificationReads + providers * (payerFundsReadsPerProvider + authorizationReads);

describe.each(layouts)("reads per worst-case request with $name", (layout) => {
  let app: Served;
  beforeAll(async () => {
    app = await serveOver(await layout.providers());
  });
  afterAll(() => app?.stop());

  test("bound: a free or recovery claim signed by anyone but the wallet reads at most walletProofReadsPerProvider a provider; the wallet's own none", async () => {
    const claims = await walletClaims(app, "203.0.113.10");
    for (const claim of claims.refused) {
      const { res, reads, byMethod } = await counted(claim);
      expect(res.status, await res.clone().text()).toBe(401);
      expect(reads, JSON.stringify(byMethod)).toBeLessThanOrEqual(walletProofReadsPerProvider * app.providerCount);
    }
    const { res, reads } = await counted(await claims.own());
    expect(res.status).toBe(200);
    expect(reads).toBe(0);
  });

  test("bound: a crypto claim with a valid signature (a smart wallet's too) and any hash reads at most wallet and payment reads a provider", async () => {
    for (const claim of await cryptoClaims(app, "203.0.113.11")) {
      const { res, reads, byMethod } = await counted(claim);
      expect(res.status, await res.clone().text()).toBe(400);
      expect(reads, JSON.stringify(byMethod)).toBeLessThanOrEqual(
        (walletProofReadsPerProvider + paymentReadsPerProvider) * app.providerCount,
      );
    }
  });

  test("bound: an x402 payment refused before it is accepted reads at most verificationReads and the payer's funds a provider", async () => {
    const payments = await refusedPayments(app, "203.0.113.12");
    for (const pay of payments.refused) {
      const { res, reads, byMethod } = await counted(pay);
      expect(res.status, await res.clone().text()).toBe(402);
      expect(reads, JSON.stringify(byMethod)).toBeLessThanOrEqual(x402Bound(app.providerCount));
    }
    // A committed payer's payment reaches the costliest step (its funds read) and is refused there.
    const last = await counted(async () => app.get(gasPath, "203.0.113.12", { "payment-signature": await payments.committed() }));
    expect(await last.res.json()).toMatchObject({ error: "PAYMENT_INVALID", reason: "payer_balance_committed" });
    expect(last.reads, JSON.stringify(last.byMethod)).toBeLessThanOrEqual(x402Bound(app.providerCount));
    // The same payment as an MCP tool call runs the same admission.
    const tool = await counted(async () =>
      app.callTool("svc_get_gas_metrics", "203.0.113.12", { "payment-signature": await payments.committed() }),
    );
    const result = (await tool.res.json()) as { result: { isError?: boolean; content: { text: string }[] } };
    expect(result.result.isError).toBe(true);
    expect(refusalText(result.result)).toMatch(/^PAYMENT_INVALID: .*payer_balance_committed/);
    expect(tool.reads, JSON.stringify(tool.byMethod)).toBeLessThanOrEqual(x402Bound(app.providerCount));
    // An unpaid request (the challenge) reads nothing.
    expect((await counted(() => app.get(gasPath, "203.0.113.12"))).reads).toBe(0);
  });
});

describe("the request after the address's budget (PUBLIC_REQUESTS_PER_MINUTE)", () => {
  const perMinute = 3;
  let app: Served;
  beforeAll(async () => {
    app = await serveOver(await (layouts[0] as Layout).providers(), perMinute);
  });
  afterAll(() => app?.stop());

  /** The budget's worth of `attempts` (one more than it) within `bound` reads each, then a 429 with Retry-After that reads nothing. */
  async function spend(attempts: (() => Promise<Response>)[], bound: number) {
    expect(attempts).toHaveLength(perMinute + 1);
    for (const attempt of attempts.slice(0, perMinute)) {
      const { res, reads, byMethod } = await counted(attempt);
      expect(res.status, await res.clone().text()).not.toBe(429);
      expect(reads, JSON.stringify(byMethod)).toBeLessThanOrEqual(bound);
    }
    const { res, reads } = await counted(attempts[perMinute] as () => Promise<Response>);
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toMatch(/^[1-9]\d*$/);
    expect(await res.json()).toMatchObject({ error: "RATE_LIMITED" });
    expect(reads).toBe(0);
  }

  test("error: free and recovery claims past the budget are 429 and read nothing", async () => {
    await spend((await walletClaims(app, "203.0.113.20")).refused, walletProofReadsPerProvider * app.providerCount);
  });

  test("error: crypto claims past the budget are 429 and read nothing", async () => {
    const costliest = (await cryptoClaims(app, "203.0.113.21")).at(-1) as () => Promise<Response>;
    await spend(Array(perMinute + 1).fill(costliest), (walletProofReadsPerProvider + paymentReadsPerProvider) * app.providerCount);
  });

  test("error: x402 payments past the budget are 429 and read nothing, over REST and as MCP tool calls", async () => {
    const payments = await refusedPayments(app, "203.0.113.22");
    const pay = (from: string) => async () => app.get(gasPath, from, { "payment-signature": await payments.committed() });
    await spend(Array(perMinute + 1).fill(pay("203.0.113.22")), x402Bound(app.providerCount));

    // Each tool call takes from the same budget (the MCP endpoint's own is apart).
    const callFrom = async () => {
      const { res, reads, byMethod } = await counted(async () =>
        app.callTool("svc_get_gas_metrics", "203.0.113.23", { "payment-signature": await payments.committed() }),
      );
      expect(res.status).toBe(200);
      const { result } = (await res.json()) as { result: { isError?: boolean; content: { text: string }[] } };
      return { text: refusalText(result), reads, byMethod };
    };
    for (let i = 0; i < perMinute; i++) {
      const { text, reads, byMethod } = await callFrom();
      expect(text).toMatch(/^PAYMENT_INVALID: /);
      expect(reads, JSON.stringify(byMethod)).toBeLessThanOrEqual(x402Bound(app.providerCount));
    }
    const refused = await callFrom();
    expect(refused.text).toMatch(/^RATE_LIMITED: too many requests; retry in [1-9]\d* s/);
    expect(refused.reads).toBe(0);
  });
});
