import { createHash } from "node:crypto";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { createApp } from "../../api/app";
import { generateApiKey } from "../../api/keys/apiKeyFormat";
import type { IntentEnvelope, IssuedKey } from "../../api/keys/records";
import { createAppStore } from "../../api/store/createAppStore";
import { unlimitedAbuse, viaTestProxy } from "../support/access";
import { testManifest } from "../support/devnet";
import { accessApp, type Backend, backendNames, openBackend, post } from "./support";

/** This file signs with a wallet of its own, generated here (no transactions). */
const manifest = testManifest();
const wallet = privateKeyToAccount(generatePrivateKey());
const proxySecret = "marketplace-proxy-secret-for-tests";
const operatorToken = "o".repeat(32);
const limits = (maxAuthFailuresPerMinute: number) => ({ ...unlimitedAbuse, maxAuthFailuresPerMinute });
const retryAfter = (res: Response) => Number(res.headers.get("retry-after"));

describe.each(backendNames)("failed authentications on %s", (backendName) => {
  let backend: Backend;
  let goodKey: string;
  beforeAll(async () => {
    backend = await openBackend(backendName);
    const { app } = accessApp(manifest, backend);
    const envelope = (await (await post(app, "/v1/subscribe/free/challenge", { userWallet: wallet.address })).json()) as IntentEnvelope;
    const claimed = await post(app, "/v1/subscribe/free/claim", {
      intentId: envelope.intent.intentId,
      signature: await wallet.signMessage({ message: envelope.intent.messageToSign }),
    });
    goodKey = ((await claimed.json()) as IssuedKey).apiKey as string;
  });
  afterAll(() => backend.close());

  const keyedApp = (maxFailures: number) =>
    accessApp(manifest, backend, { clientIpHeader: "x-forwarded-for", limits: limits(maxFailures) }).app;
  const self = (app: ReturnType<typeof createApp>, ip: string, key: string) =>
    app.request("/v1/keys/self", { headers: { "x-forwarded-for": ip, "x-api-key": key } }, viaTestProxy);

  test("behavior: 20 wrong keys from an address are 401, the 21st is 429 with Retry-After; another address is still answered 401", async () => {
    const app = keyedApp(20);
    for (let n = 0; n < 20; n += 1) {
      const res = await self(app, "198.51.100.1", generateApiKey("test"));
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ error: "INVALID_API_KEY" });
    }
    const limited = await self(app, "198.51.100.1", generateApiKey("test"));
    expect(limited.status).toBe(429);
    expect(await limited.json()).toMatchObject({ error: "TOO_MANY_FAILED_AUTHENTICATIONS", retryable: true });
    expect(limited.headers.get("retry-after")).toMatch(/^[1-9]\d*$/);
    expect(retryAfter(limited)).toBeLessThanOrEqual(60);
    const elsewhere = await self(app, "198.51.100.2", generateApiKey("test"));
    expect(elsewhere.status).toBe(401);
  });

  test("behavior: 100 concurrent wrong keys from one address: exactly 20 are checked (401), the rest refused unchecked (429)", async () => {
    const app = keyedApp(20);
    const answers = await Promise.all(Array.from({ length: 100 }, () => self(app, "198.51.100.9", generateApiKey("test"))));
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(20);
    expect(statuses.filter((s) => s === 429)).toHaveLength(80);
    // A right key gives its reserved failure back: checked successes spend nothing.
    const fresh = keyedApp(2);
    for (let n = 0; n < 5; n += 1) expect((await self(fresh, "198.51.100.10", goodKey)).status).toBe(200);
    expect((await self(fresh, "198.51.100.10", generateApiKey("test"))).status).toBe(401);
    expect((await self(fresh, "198.51.100.10", generateApiKey("test"))).status).toBe(401);
    expect((await self(fresh, "198.51.100.10", generateApiKey("test"))).status).toBe(429);
  });

  test("behavior: 50 concurrent first calls with a good key from one address are all answered (one check's reservation, shared); 50 with one wrong key are all 401 and spend the address's budget", async () => {
    const app = keyedApp(20);
    const first = await Promise.all(Array.from({ length: 50 }, () => self(app, "198.51.100.20", goodKey)));
    expect(first.map((r) => r.status)).toEqual(Array(50).fill(200));
    const wrongKey = generateApiKey("test");
    const wrong = await Promise.all(Array.from({ length: 50 }, () => self(app, "198.51.100.21", wrongKey)));
    expect(wrong.map((r) => r.status)).toEqual(Array(50).fill(401));
    expect((await self(app, "198.51.100.21", generateApiKey("test"))).status).toBe(429);
  });

  test("behavior: a key in use still works from a limited address; one this process has not seen pass waits like any other", async () => {
    const app = keyedApp(3);
    for (let n = 0; n < 3; n += 1) expect((await self(app, "198.51.100.3", generateApiKey("test"))).status).toBe(401);
    // Not yet seen to pass by this app: refused unchecked, as a guessed key would be.
    expect((await self(app, "198.51.100.3", goodKey)).status).toBe(429);
    expect((await self(app, "198.51.100.4", goodKey)).status).toBe(200);
    const served = await self(app, "198.51.100.3", goodKey);
    expect(served.status).toBe(200);
    expect(served.headers.get("retry-after")).toBeNull();
    expect((await self(app, "198.51.100.3", generateApiKey("test"))).status).toBe(429);
  });

  test("behavior: successes spend nothing: a key used 50 times leaves the whole failure budget", async () => {
    const app = keyedApp(2);
    for (let n = 0; n < 50; n += 1) expect((await self(app, "198.51.100.5", goodKey)).status).toBe(200);
    expect((await self(app, "198.51.100.5", generateApiKey("test"))).status).toBe(401);
    expect((await self(app, "198.51.100.5", generateApiKey("test"))).status).toBe(401);
    expect((await self(app, "198.51.100.5", generateApiKey("test"))).status).toBe(429);
  });

  test("behavior: a spent budget refuses before the key is looked up (429 even with the store gone)", async () => {
    const store = createAppStore({ kind: "pglite", directory: "memory://" });
    await store.ready;
    const { app } = accessApp(manifest, { ...backend, store }, { clientIpHeader: "x-forwarded-for", limits: limits(2) });
    for (let n = 0; n < 2; n += 1) expect((await self(app, "198.51.100.6", generateApiKey("test"))).status).toBe(401);
    await store.close();
    // A lookup now would be 503 PERSISTENCE_UNAVAILABLE.
    expect((await self(app, "198.51.100.7", generateApiKey("test"))).status).toBe(503);
    const refused = await self(app, "198.51.100.6", generateApiKey("test"));
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ error: "TOO_MANY_FAILED_AUTHENTICATIONS" });
  });

  test("behavior: wrong gateway proxy secrets and operator tokens spend the same per-address budget", async () => {
    const { app } = accessApp(manifest, backend, {
      clientIpHeader: "x-forwarded-for",
      limits: limits(3),
      gatewayProxySecretSha256: createHash("sha256").update(proxySecret).digest("hex"),
      operatorBootstrapToken: operatorToken,
    });
    const gateway = (ip: string, secret: string) =>
      post(
        app,
        "/v1/transaction/preflight",
        { chainId: 8453, to: manifest.contracts.plainToken, data: "0x18160ddd" },
        {
          "x-forwarded-for": ip,
          "x-gateway-key": "g",
          "x-gateway-proxy-secret": secret,
          "x-gateway-user": "alice",
        },
      );
    const operator = (ip: string, token: string) =>
      app.request(
        "/v1/operator/gateway-proxy-digest",
        { headers: { "x-forwarded-for": ip, "x-operator-bootstrap": token, "x-gateway-proxy-secret": proxySecret, "x-gateway-user": "u" } },
        viaTestProxy,
      );
    expect((await gateway("198.51.100.8", "wrong")).status).toBe(401);
    expect((await gateway("198.51.100.8", "")).status).toBe(401);
    expect((await operator("198.51.100.8", "wrong")).status).toBe(401);
    const gatewayLimited = await gateway("198.51.100.8", "wrong");
    expect(gatewayLimited.status).toBe(429);
    expect(gatewayLimited.headers.get("retry-after")).toMatch(/^[1-9]\d*$/);
    const operatorLimited = await operator("198.51.100.8", "wrong");
    expect(operatorLimited.status).toBe(429);
    expect(await operatorLimited.json()).toMatchObject({ error: "TOO_MANY_FAILED_AUTHENTICATIONS" });
    expect((await operator("198.51.100.9", "wrong")).status).toBe(401);
    // The right secret and token, once seen to pass elsewhere, pass from the limited address too.
    expect((await gateway("198.51.100.9", proxySecret)).status).toBe(200);
    expect((await operator("198.51.100.9", operatorToken)).status).toBe(200);
    expect((await gateway("198.51.100.8", proxySecret)).status).toBe(200);
    expect((await operator("198.51.100.8", operatorToken)).status).toBe(200);
  });
});
