import { createHash } from "node:crypto";
import { once } from "node:events";
import { setTimeout as sleep } from "node:timers/promises";
import type { Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { connectRedis } from "../../api/access/connectRedis";
import { createCreditService } from "../../api/access/createCreditService";
import { createRateLimits } from "../../api/access/createRateLimits";
import { createApp } from "../../api/app";
import { ConfigError, loadConfig } from "../../api/config";
import { createKeyHasher } from "../../api/keys/createKeyHasher";
import type { IntentEnvelope, IssuedKey, Plans } from "../../api/keys/records";
import { createAppStore } from "../../api/store/createAppStore";
import { findKeyBySecretHash } from "../../api/store/keyQueries";
import { unlimitedRates, viaTestProxy } from "../support/access";
import { testAppParameters } from "../support/app";
import { testManifest } from "../support/devnet";
import { accessApp, type Backend, backendNames, openBackend, post } from "./support";

/** This file signs as users[10] only (no transactions). */
const manifest = testManifest();
const user = manifest.accounts.users[10] as { address: `0x${string}`; privateKey: Hex };
if (!user) throw new Error("the devnet manifest has too few users");
const sign = (message: string) => privateKeyToAccount(user.privateKey).signMessage({ message });
const proxySecret = "marketplace-proxy-secret-for-tests";
const proxyDigest = createHash("sha256").update(proxySecret).digest("hex");

const auditPath = `/v1/audit/${manifest.contracts.plainToken}`;
/** A preflight of a view call on a fixture: evidence grade on the devnet, so a 200 that costs one credit. */
const preflight = (app: ReturnType<typeof createApp>, headers: Record<string, string> = {}) =>
  post(app, "/v1/transaction/preflight", { chainId: 8453, to: manifest.contracts.plainToken, data: "0x18160ddd" }, headers);

async function freeKey(app: ReturnType<typeof createApp>): Promise<string> {
  const envelope = (await (await post(app, "/v1/subscribe/free/challenge", { userWallet: user.address })).json()) as IntentEnvelope;
  const res = await post(app, "/v1/subscribe/free/claim", {
    intentId: envelope.intent.intentId,
    signature: await sign(envelope.intent.messageToSign),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as IssuedKey).apiKey as string;
}

describe.each(backendNames)("limits, gateway and operator on %s", (backendName) => {
  let backend: Backend;
  let rawKey: string;
  beforeAll(async () => {
    backend = await openBackend(backendName);
    rawKey = await freeKey(accessApp(manifest, backend).app);
  });
  afterAll(() => backend.close());

  test("default: GET /v1/plans is the catalogue: tiers, credits, prices for 31/90/365 days, payment and x402 prices", async () => {
    const res = await accessApp(manifest, backend).app.request("/v1/plans");
    expect(res.status).toBe(200);
    const plans = (await res.json()) as Plans;
    expect(plans.plans.map((p) => p.tier)).toEqual(["FREE", "STARTER", "GROWTH", "PRO"]);
    const prices = Object.fromEntries(plans.plans.map((p) => [p.tier, p.prices.map((x) => x.priceUsd)]));
    expect(prices).toEqual({
      FREE: [],
      STARTER: ["49.00", "132.30", "490.00"],
      GROWTH: ["299.00", "807.30", "2990.00"],
      PRO: ["999.00", "2697.30", "9990.00"],
    });
    expect(plans.plans.map((p) => p.entitlements.creditsPerCycle)).toEqual([300, 10_000, 100_000, 500_000]);
    expect(plans.payment).toMatchObject({
      network: "eip155:8453",
      payTo: manifest.payoutAddress,
      confirmationsRequired: 3,
      intentValidityMinutes: 15,
    });
    // Only routes that exist are priced, and x402 only where per-call payment is accepted.
    const byRoute = <T extends { route: string }>(list: T[]) => [...list].sort((a, b) => a.route.localeCompare(b.route));
    const payable = [
      { route: "GET /v1/audit/{address}", priceUsd: 0.02, credits: 1 },
      { route: "GET /v1/security/score/{address}", priceUsd: 0.02, credits: 1 },
      { route: "GET /v1/gas/fees", priceUsd: 0.005, credits: 1 },
      { route: "GET /v1/dex/metrics", priceUsd: 0.01, credits: 1 },
      { route: "GET /v1/token/price/{symbol}", priceUsd: 0.005, credits: 1 },
      { route: "GET /v1/whales/signals", priceUsd: 0.02, credits: 1 },
      { route: "GET /v1/token/simulation/{address}", priceUsd: 0.01, credits: 2 },
    ];
    expect(byRoute(plans.credits)).toEqual(
      byRoute([...payable.map(({ route, credits }) => ({ route, credits })), { route: "POST /v1/transaction/preflight", credits: 1 }]),
    );
    expect(byRoute(plans.x402)).toEqual(byRoute(payable.map(({ route, priceUsd }) => ({ route, priceUsd }))));
    const { access, keyRoutes } = accessApp(manifest, backend);
    const withoutX402 = createApp(testAppParameters(manifest, backend.indexDb, { access, keyRoutes, x402: null }));
    expect(((await (await withoutX402.request("/v1/plans")).json()) as Plans).x402).toEqual([]);
  });

  test("behavior: per-minute limit per key: X-RateLimit-Remaining counts down, then 429 with an integer Retry-After", async () => {
    const { app } = accessApp(manifest, backend, { rateLimits: createRateLimits({ perMinute: { ...unlimitedRates, FREE: 3 } }) });
    const remaining: (string | null)[] = [];
    for (let n = 0; n < 3; n += 1) {
      const res = await app.request("/v1/keys/self", { headers: { "x-api-key": rawKey } });
      expect(res.status).toBe(200);
      remaining.push(res.headers.get("x-ratelimit-remaining"));
    }
    expect(remaining).toEqual(["2", "1", "0"]);
    const limited = await app.request("/v1/keys/self", { headers: { "x-api-key": rawKey } });
    expect(limited.status).toBe(429);
    expect(await limited.json()).toMatchObject({ error: "RATE_LIMITED" });
    expect(limited.headers.get("retry-after")).toMatch(/^[1-9]\d*$/);
    expect(Number(limited.headers.get("retry-after"))).toBeLessThanOrEqual(60);
  });

  test("behavior: unauthenticated routes are limited per client address (CLIENT_IP_HEADER), one shared bucket without one", async () => {
    const rateLimits = createRateLimits({ perMinute: { ...unlimitedRates, PUBLIC: 2 } });
    const { app } = accessApp(manifest, backend, { rateLimits, clientIpHeader: "x-forwarded-for" });
    const from = (ip: string) => app.request("/v1/plans", { headers: { "x-forwarded-for": `10.0.0.1, ${ip}` } }, viaTestProxy);
    expect((await from("198.51.100.1")).status).toBe(200);
    expect((await from("198.51.100.1")).status).toBe(200);
    expect((await from("198.51.100.1")).status).toBe(429);
    expect((await from("198.51.100.2")).status).toBe(200);
    const shared = accessApp(manifest, backend, { rateLimits: createRateLimits({ perMinute: { ...unlimitedRates, PUBLIC: 1 } }) }).app;
    expect((await post(shared, "/v1/keys/recovery/challenge", { userWallet: user.address })).status).toBe(202);
    expect((await post(shared, "/v1/subscribe/free/challenge", { userWallet: user.address })).status).toBe(429);
  });

  test("behavior: IPv6 clients share a bucket per /64, IPv4-mapped addresses count as IPv4", async () => {
    const rateLimits = createRateLimits({ perMinute: { ...unlimitedRates, PUBLIC: 1 } });
    const { app } = accessApp(manifest, backend, { rateLimits, clientIpHeader: "x-forwarded-for" });
    const from = (ip: string) => app.request("/v1/plans", { headers: { "x-forwarded-for": ip } }, viaTestProxy);
    expect((await from("2001:db8:1:2::1")).status).toBe(200);
    expect((await from("2001:DB8:1:2:ffff:ffff:ffff:9")).status).toBe(429);
    expect((await from("2001:db8:1:3::1")).status).toBe(200);
    expect((await from("198.51.100.7")).status).toBe(200);
    expect((await from("::ffff:198.51.100.7")).status).toBe(429);
    expect((await from("::ffff:198.51.100.8")).status).toBe(200);
  });

  test.runIf(process.env.REDIS_URL)(
    "behavior: with Redis the budget is shared by replicas; an unreachable Redis degrades to memory",
    async () => {
      const redis = connectRedis(process.env.REDIS_URL as string);
      const dead = connectRedis("redis://127.0.0.1:1");
      try {
        // A Redis that is not running fails here (its connection error, or no answer within 15 s), not as this test's timeout.
        const ready =
          redis.status === "ready" || (await Promise.race([once(redis, "ready").then(() => true), sleep(15_000, false, { ref: false })]));
        if (!ready) throw new Error(`Redis at REDIS_URL (${process.env.REDIS_URL}) did not answer: is it running?`);
        const perMinute = { ...unlimitedRates, FREE: 4 };
        const replicas = [createRateLimits({ redis, perMinute }), createRateLimits({ redis, perMinute })];
        const apps = replicas.map((rateLimits) => accessApp(manifest, backend, { rateLimits }).app);
        const statuses: number[] = [];
        for (let n = 0; n < 6; n += 1)
          statuses.push(
            (await (apps[n % 2] as ReturnType<typeof createApp>).request("/v1/keys/self", { headers: { "x-api-key": rawKey } })).status,
          );
        expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
        const degraded = accessApp(manifest, backend, { rateLimits: createRateLimits({ redis: dead, perMinute }) }).app;
        expect((await degraded.request("/v1/keys/self", { headers: { "x-api-key": rawKey } })).status).toBe(200);
      } finally {
        redis.disconnect();
        dead.disconnect();
      }
    },
  );

  test("behavior: payable routes: no credential 402 PAYMENT_REQUIRED, the gateway is no credential there, an API key is served and charged", async () => {
    const { app } = accessApp(manifest, backend, { gatewayProxySecretSha256: proxyDigest });
    const none = await app.request(auditPath);
    expect(none.status).toBe(402);
    expect(await none.json()).toMatchObject({ error: "PAYMENT_REQUIRED", plans: "/v1/plans" });
    const gateway = await app.request(auditPath, { headers: { "x-gateway-key": "g", "x-gateway-proxy-secret": proxySecret } });
    expect(gateway.status).toBe(402);
    const served = await app.request(auditPath, { headers: { "x-api-key": rawKey } });
    expect(served.status).toBe(200);
    expect(served.headers.get("x-credits-remaining")).toBe("9");
  });

  test("behavior: preflight: no credential 401; the gateway passes only behind the proxy secret and is never charged", async () => {
    const { app } = accessApp(manifest, backend, { gatewayProxySecretSha256: proxyDigest });
    const none = await preflight(app);
    expect(none.status).toBe(401);
    expect(await none.json()).toMatchObject({ error: "CREDENTIAL_REQUIRED" });
    const refused: Record<string, string>[] = [{ "x-gateway-key": "g" }, { "x-gateway-key": "g", "x-gateway-proxy-secret": "wrong" }];
    for (const headers of refused) {
      const res = await preflight(app, headers);
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ error: "INVALID_GATEWAY_CREDENTIAL" });
    }
    const gateway = await preflight(app, { "x-gateway-key": "g", "x-gateway-proxy-secret": proxySecret, "x-gateway-user": "alice" });
    expect(gateway.status).toBe(200);
    expect(gateway.headers.get("x-credits-remaining")).toBeNull();
    expect(await gateway.json()).toMatchObject({ status: "SUCCESS", evidenceGrade: true });
    const disabled = accessApp(manifest, backend).app;
    expect((await preflight(disabled, { "x-gateway-key": "g", "x-gateway-proxy-secret": proxySecret })).status).toBe(401);
    const keyed = await preflight(app, { authorization: `Bearer ${rawKey}` });
    expect(keyed.status).toBe(200);
    expect(keyed.headers.get("x-credits-remaining")).toBe("8");
  });

  test("behavior: operator bootstrap: 404 unless configured, then 401 / 400 / 200 {sha256} exactly as specified", async () => {
    const token = "t".repeat(32);
    const path = "/v1/operator/gateway-proxy-digest";
    const ask = (app: ReturnType<typeof createApp>, headers: Record<string, string>) => app.request(path, { headers });
    const off = accessApp(manifest, backend).app;
    const offRes = await ask(off, { "x-operator-bootstrap": token, "x-gateway-proxy-secret": proxySecret, "x-gateway-user": "u" });
    expect(offRes.status).toBe(404);
    expect(await offRes.json()).toMatchObject({ error: "NOT_FOUND" });
    const short = accessApp(manifest, backend, { operatorBootstrapToken: "short" }).app;
    expect(
      (await ask(short, { "x-operator-bootstrap": "short", "x-gateway-proxy-secret": proxySecret, "x-gateway-user": "u" })).status,
    ).toBe(404);

    const on = accessApp(manifest, backend, { operatorBootstrapToken: token }).app;
    expect((await ask(on, { "x-gateway-proxy-secret": proxySecret, "x-gateway-user": "u" })).status).toBe(401);
    expect(
      (await ask(on, { "x-operator-bootstrap": `${token}x`, "x-gateway-proxy-secret": proxySecret, "x-gateway-user": "u" })).status,
    ).toBe(401);
    const noSecret = await ask(on, { "x-operator-bootstrap": token, "x-gateway-user": "u" });
    expect(noSecret.status).toBe(400);
    const noGateway = await ask(on, { "x-operator-bootstrap": token, "x-gateway-proxy-secret": proxySecret, "x-gateway-user": " " });
    expect(noGateway.status).toBe(400);
    for (const header of ["x-gateway-user", "x-gateway-subscription", "x-gateway-host", "x-gateway-key"]) {
      const res = await ask(on, { "x-operator-bootstrap": token, "x-gateway-proxy-secret": proxySecret, [header]: "v" });
      expect(res.status).toBe(200);
      const text = await res.text();
      expect(JSON.parse(text)).toEqual({ sha256: proxyDigest });
      expect(text).not.toContain(proxySecret);
    }
  });

  test("behavior: an expired key is 402 API_KEY_EXPIRED on charged routes and still describes itself", async () => {
    const hash = createKeyHasher("test-pepper-0123456789abcdef0123456789abcdef");
    const key = await findKeyBySecretHash(backend.store.db, hash(rawKey));
    await backend.sql("UPDATE app.api_key SET expires_at = now() - interval '1 day' WHERE id = $1", [key?.id]);
    const { app } = accessApp(manifest, backend);
    const refused = await app.request(auditPath, { headers: { "x-api-key": rawKey } });
    expect(refused.status).toBe(402);
    expect(await refused.json()).toMatchObject({ error: "API_KEY_EXPIRED" });
    const self = await app.request("/v1/keys/self", { headers: { "x-api-key": rawKey } });
    expect(self.status).toBe(200);
    expect(await self.json()).toMatchObject({ status: "EXPIRED" });
    await backend.sql("UPDATE app.api_key SET expires_at = NULL WHERE id = $1", [key?.id]);
  });

  test("error: an unreachable store is 503 PERSISTENCE_UNAVAILABLE, never 500", async () => {
    const store = createAppStore({ kind: "postgres", url: "postgres://postgres@127.0.0.1:1/none" });
    const { access, keyRoutes } = accessApp(manifest, { ...backend, store });
    const app = createApp(testAppParameters(manifest, backend.indexDb, { access, keyRoutes }));
    const results = [
      await app.request("/v1/keys/self", { headers: { "x-api-key": "svc_test_1111111111111111111111111111111111111111111" } }),
      await post(app, "/v1/subscribe/free/challenge", { userWallet: user.address }),
      await post(app, "/v1/keys/recovery/challenge", { userWallet: user.address }),
    ];
    for (const res of results) {
      expect(res.status).toBe(503);
      expect(await res.json()).toMatchObject({ error: "PERSISTENCE_UNAVAILABLE" });
    }
    await store.close();
  });

  test("behavior: credits renew each 31-day cycle from issuance and each UTC day", async () => {
    const hash = createKeyHasher("test-pepper-0123456789abcdef0123456789abcdef");
    const key = await findKeyBySecretHash(backend.store.db, hash(rawKey));
    if (!key) throw new Error("no key");
    let now = new Date(key.cycleAnchor.getTime() + 86_400_000);
    const credits = createCreditService({ db: backend.store.db, clock: () => now });
    for (let n = 0; n < 10; n += 1) expect((await credits.charge(key, 1)).ok).toBe(true);
    const capped = await credits.charge(key, 1);
    expect(capped).toMatchObject({ ok: false, reason: "DAILY_LIMIT" });
    expect(capped.balance.daily?.remaining).toBe(0);
    now = new Date(now.getTime() + 86_400_000);
    expect((await credits.charge(key, 1)).ok).toBe(true);
    now = new Date(key.cycleAnchor.getTime() + 31 * 86_400_000 + 1000);
    const next = await credits.balance(key);
    expect(next).toMatchObject({ used: 0, remaining: 300, daily: { used: 0 } });
    expect(Date.parse(next.cycleStartedAt)).toBe(key.cycleAnchor.getTime() + 31 * 86_400_000);
    expect((await credits.charge(key, 1)).balance).toMatchObject({ used: 1 });
  });
});

describe("configuration and an unreachable store", () => {
  test("error: mainnet without API_KEY_PEPPER, a short bootstrap token or a bad digest stop the configuration", () => {
    expect(() => loadConfig({ BASE_RPC_URLS: "https://a.example,https://b.example" })).toThrow(ConfigError);
    expect(() => loadConfig({ BASE_RPC_URLS: "https://a.example", API_KEY_PEPPER: "p".repeat(32) })).not.toThrow();
    expect(() => loadConfig({ OPERATOR_BOOTSTRAP_TOKEN: "short" })).toThrow(/OPERATOR_BOOTSTRAP_TOKEN/);
    expect(() => loadConfig({ GATEWAY_PROXY_SECRET_SHA256: "abc" })).toThrow(/GATEWAY_PROXY_SECRET_SHA256/);
    expect(loadConfig({ GATEWAY_PROXY_SECRET_SHA256: proxyDigest.toUpperCase() }).access.gatewayProxySecretSha256).toBe(proxyDigest);
    expect(loadConfig({ DATABASE_URL: "postgres://u@h/db" }).appStore).toEqual({ kind: "postgres", url: "postgres://u@h/db" });
    // Origins are what challenges name as their EIP-4361 domain: a host a wallet can show.
    expect(loadConfig({ PUBLIC_URL: "https://api.example.com/" }).origins.public).toBe("https://api.example.com");
    expect(() => loadConfig({ PUBLIC_URL: "http://api:8080" })).toThrow(/PUBLIC_URL/);
    expect(() => loadConfig({ FALLBACK_URL: "http://[::1]:42069" })).toThrow(/FALLBACK_URL/);
    expect(() => loadConfig({ PUBLIC_URL: "https://api.example.com/v1" })).toThrow(/PUBLIC_URL/);
    const exposed = { DEVNET_ALLOW_PUBLIC_HOST: "true" };
    expect(loadConfig({ ...exposed, HOST: "::", PORT: "8080" }).origins.public).toBe("http://localhost:8080");
    expect(loadConfig({ ...exposed, HOST: "0.0.0.0" }).origins.public).toBe("http://0.0.0.0:42069");
  });
});
