import { type CreateAccessServicesParameters, createAccessServices } from "../../api/access/createAccessServices";
import { createRateLimits } from "../../api/access/createRateLimits";
import type { IndexDb } from "../../api/index/indexDb";
import { type AppStore, createAppStore } from "../../api/store/createAppStore";
import type { Manifest } from "../../devnet/manifest";
import { devnetProvider } from "./devnet";
import { testOrigins, testPepper } from "./keyClaims";

/** Generous per-minute budgets, so tests that are not about rate limits never meet one. */
export const unlimitedRates = { FREE: 1e6, STARTER: 1e6, GROWTH: 1e6, PRO: 1e6, GATEWAY: 1e6, PUBLIC: 1e6, MCP: 1e6 };

/** The trusted proxy (TRUSTED_PROXIES) of the test apps. */
export const testProxyAddress = "10.0.0.1";

/**
 * Bindings for an in-process request (`app.request(path, init, viaTestProxy)`) as if its socket's peer
 * were the test apps' trusted proxy, so the client address its x-forwarded-for names is believed.
 */
export const viaTestProxy = { incoming: { socket: { remoteAddress: testProxyAddress } } };

/** Generous abuse limits (open intents, intents per address, failed authentications), likewise. */
export const unlimitedAbuse = { maxOpenIntentsPerWallet: 1e6, maxIntentsPerClientPerHour: 1e6, maxAuthFailuresPerMinute: 1e6 };

let shared: AppStore | undefined;

/** The test process's app store: one in-memory PGlite, migrated. */
export function testAppStore(): AppStore {
  shared ??= createAppStore({ kind: "pglite", directory: "memory://" });
  return shared;
}

/**
 * Real access services (the middleware's `access`, the key routes' `keyRoutes`) against the test devnet: an app store (a shared in-memory PGlite unless
 * given), the devnet as the one trusted provider, its payout address, no ETH quote, generous rate
 * and abuse limits, and `testProxyAddress` as the trusted proxy. A test overrides the parts it is about.
 */
export function testAccessServices(manifest: Manifest, indexDb: IndexDb, overrides: Partial<CreateAccessServicesParameters> = {}) {
  return createAccessServices({
    store: overrides.store ?? testAppStore(),
    origins: testOrigins,
    pepper: testPepper,
    environment: "test",
    chainId: 8453,
    providers: [devnetProvider(manifest.rpcUrl)],
    indexDb,
    payTo: manifest.payoutAddress,
    ethQuote: { weiPerUsd: async () => null },
    rateLimits: createRateLimits({ perMinute: unlimitedRates }),
    limits: unlimitedAbuse,
    trustedProxies: [testProxyAddress],
    // No key cache: tests change keys with SQL and expect the next call to see it (test/access/replicas.test.ts is about the cache).
    keyCacheMaxStalenessMs: 0,
    ...overrides,
  });
}
