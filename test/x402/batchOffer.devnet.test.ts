import { decodePaymentRequiredHeader } from "@x402/core/http";
import type { PaymentRequirements } from "@x402/core/types";
import { keccak256, parseUnits } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createApp } from "../../api/app";
import { routes } from "../../api/routes/routeList";
import { examplePath } from "../../api/x402/bazaar/bazaarDeclaration";
import type { X402Service } from "../../api/x402/createX402Service";
import { escrowCodeCheck } from "../../api/x402/escrowCodeCheck";
import { baseNetwork, baseUsdc } from "../../base/baseChain";
import { type Backend, openBackend } from "../access/support";
import { testAccessServices } from "../support/access";
import { testAppParameters } from "../support/app";
import { devnetProvider, testManifest } from "../support/devnet";
import { startRpcProxy } from "../support/rpcProxy";
import { testBatchSettlement, testSigningKey, testX402Service } from "../support/x402";

const manifest = testManifest();
const payTo = privateKeyToAccount(generatePrivateKey()).address;
const origin = "http://127.0.0.1:42069";
/** Every route a call may pay for per call with x402, from the route list (a route added there is covered here). */
const payable = Object.values(routes).flatMap((route) =>
  "access" in route && route.access === "apiKeyOrX402" && route.x402PriceUsd !== undefined
    ? [{ ...route, x402PriceUsd: route.x402PriceUsd }]
    : [],
);

let backend: Backend;
beforeAll(async () => {
  backend = await openBackend("pglite");
}, 60_000);
afterAll(() => backend?.close());

/** The API with `x402`: a 402 is answered before any handler, so nothing else of it is needed. */
const appWith = (x402: X402Service) =>
  createApp(
    testAppParameters(manifest, backend.indexDb, { ...testAccessServices(manifest, backend.indexDb, { store: backend.store }), x402 }),
  );

/** The schemes and terms a route's 402 offers, through `app`. */
async function offered(app: ReturnType<typeof createApp>, path: string): Promise<PaymentRequirements[]> {
  const res = await app.fetch(new Request(`${origin}${path}`));
  expect(res.status, path).toBe(402);
  const challenge = decodePaymentRequiredHeader(res.headers.get("payment-required") as string);
  expect((await res.json()) as { paymentRequired: unknown }, path).toMatchObject({ paymentRequired: challenge });
  return challenge.accepts;
}

describe("x402 batch-settlement offered beside exact", () => {
  test("default: every payable route's challenge offers exact, then batch-settlement on the devnet escrow, at the same price", async () => {
    expect(payable.length).toBeGreaterThanOrEqual(6);
    const x402 = testX402Service(manifest, backend.store, { payTo, batchSettlement: testBatchSettlement(manifest) });
    const app = appWith(x402);
    for (const route of payable) {
      const amount = parseUnits(String(route.x402PriceUsd), 6).toString();
      const terms = { network: baseNetwork, asset: baseUsdc, amount, payTo, maxTimeoutSeconds: 300 };
      expect(await offered(app, examplePath(route)), route.name).toEqual([
        { scheme: "exact", ...terms, extra: { name: "USD Coin", version: "2" } },
        {
          scheme: "batch-settlement",
          ...terms,
          extra: {
            name: "USD Coin",
            version: "2",
            // The service's signing key authorizes claims on the channels; a payer may withdraw 900 s after asking.
            receiverAuthorizer: privateKeyToAccount(testSigningKey).address,
            withdrawDelay: 900,
            minDeposit: (BigInt(amount) * 10n).toString(),
          },
        },
      ]);
    }
    // The discovery listing offers what the challenges do.
    const listing = (await (await app.fetch(new Request(`${origin}/v1/x402/discovery`))).json()) as { items: { accepts: unknown[] }[] };
    expect(listing.items.map((item) => item.accepts.length)).toEqual(payable.map(() => 2));
  });

  test("behavior: an escrow whose code is not the expected one, or absent, is never offered: exact alone", async () => {
    for (const [name, expectedCodeHash] of [
      ["another code hash", keccak256("0x00")],
      ["no hash trusted on this chain", null],
    ] as const) {
      const escrow = escrowCodeCheck({ providers: [devnetProvider(manifest.rpcUrl)], chainId: 8453, expectedCodeHash });
      const x402 = testX402Service(manifest, backend.store, { payTo, batchSettlement: { escrow } });
      const schemes = (await offered(appWith(x402), examplePath(routes.gasFees))).map((terms) => terms.scheme);
      expect(schemes, name).toEqual(["exact"]);
    }
  });

  test("behavior: without a signing key there is no receiverAuthorizer: exact alone", async () => {
    const x402 = testX402Service(manifest, backend.store, { payTo, signer: null, batchSettlement: testBatchSettlement(manifest) });
    expect(x402.batchScheme).toBeNull();
    expect((await offered(appWith(x402), examplePath(routes.gasFees))).map((terms) => terms.scheme)).toEqual(["exact"]);
  });

  test("error: the chain unreadable when the escrow is checked: exact alone, and the check runs again until it reads", async () => {
    const proxy = await startRpcProxy(manifest.rpcUrl, "down");
    try {
      const providers = [devnetProvider(proxy.url)];
      const escrow = escrowCodeCheck({ providers, chainId: 8453, expectedCodeHash: manifest.codeHashes.x402BatchSettlement });
      expect(await escrow()).toBe("UNREAD");
      await proxy.setMode("empty-code");
      expect(await escrow()).toBe("ABSENT");
      // A definite answer is kept: the escrow is read once per process, at start.
      await proxy.setMode("pass");
      const reads = (await proxy.counts()).eth_getCode ?? 0;
      expect(await escrow()).toBe("ABSENT");
      expect((await proxy.counts()).eth_getCode ?? 0).toBe(reads);
      const fresh = escrowCodeCheck({ providers, chainId: 8453, expectedCodeHash: manifest.codeHashes.x402BatchSettlement });
      expect(await Promise.all([fresh(), fresh()])).toEqual(["FOUND", "FOUND"]);
      expect((await proxy.counts()).eth_getCode).toBe(reads + 1);
    } finally {
      await proxy.stop();
    }
  });
});
