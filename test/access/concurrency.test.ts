import type { Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createApp } from "../../api/app";
import type { IntentEnvelope, IssuedKey, PurchaseIntent } from "../../api/keys/records";
import { testAppParameters } from "../support/app";
import { testManifest } from "../support/devnet";
import { payUsdc } from "../support/usdc";
import { accessApp, type Backend, backendNames, captureLogs, indexHeadAt, indexPayment, openBackend, post, userKey } from "./support";

/** This file's wallet: users[9] (other files use users[6..8] and [10]). */
const manifest = testManifest();
const userIndex = 9;
const user = manifest.accounts.users[userIndex] as { address: `0x${string}`; privateKey: Hex };
if (!user) throw new Error("the devnet manifest has too few users");
const sign = (message: string) => privateKeyToAccount(user.privateKey).signMessage({ message });

/** A payable route and the preflight route, both metered after a 2xx (evidence grade on the devnet). */
const calls = {
  audit: { path: `/v1/audit/${manifest.contracts.plainToken}`, init: {} },
  preflight: {
    path: "/v1/transaction/preflight",
    init: {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ chainId: 8453, to: manifest.contracts.plainToken, data: "0x18160ddd" }),
    },
  },
};
const call = (app: ReturnType<typeof createApp>, name: keyof typeof calls, apiKey: string) => {
  const { path, init } = calls[name] as { path: string; init: RequestInit & { headers?: Record<string, string> } };
  return app.request(path, { ...init, headers: { ...init.headers, "x-api-key": apiKey } });
};

describe.each(backendNames)("concurrency on %s", (backendName) => {
  let backend: Backend;
  let logs: ReturnType<typeof captureLogs>;
  let paid: IssuedKey;
  const rawKeys: string[] = [];
  beforeAll(async () => {
    logs = captureLogs();
    backend = await openBackend(backendName);
  });
  afterAll(async () => {
    logs.restore();
    await backend.close();
  });

  /** Several API replicas over one database (on PGlite, one process's store). */
  const replicas = (count: number) =>
    Array.from({ length: count }, (_, n) => accessApp(manifest, { ...backend, store: backend.replica(n) }));

  test("behavior: 200 concurrent claims of one txHash, over 20 intents and 4 replicas, issue exactly one key", async () => {
    const [first] = replicas(1);
    if (!first) throw new Error("no replica");
    const intents: PurchaseIntent["intent"][] = [];
    for (let n = 0; n < 20; n += 1) {
      const res = await post(first.app, "/v1/subscribe/intents", { tier: "STARTER", userWallet: user.address });
      intents.push(((await res.json()) as PurchaseIntent).intent);
    }
    const receipt = await payUsdc(manifest, userKey(userIndex), manifest.payoutAddress, 49_000_000n);
    await indexPayment(backend, manifest, receipt);
    await indexHeadAt(backend, manifest, receipt.blockNumber + 3n);
    const signatures = await Promise.all(intents.map((i) => sign(i.messageToSign)));

    const apps = replicas(4);
    const started = performance.now();
    const responses = await Promise.all(
      Array.from({ length: 200 }, (_, n) => {
        const i = n % intents.length;
        const app = apps[n % apps.length]?.app ?? first.app;
        return post(app, "/v1/subscribe/crypto", {
          intentId: intents[i]?.intentId,
          signature: signatures[i],
          txHash: receipt.transactionHash,
        });
      }),
    );
    const elapsed = performance.now() - started;
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 400)).toHaveLength(199);
    const codes = new Set(
      await Promise.all(responses.filter((r) => r.status === 400).map(async (r) => ((await r.json()) as { error: string }).error)),
    );
    expect([...codes].every((c) => c === "TX_ALREADY_REDEEMED" || c === "INTENT_ALREADY_USED")).toBe(true);
    paid = (await responses.find((r) => r.status === 200)?.json()) as IssuedKey;
    rawKeys.push(paid.apiKey as string);
    const keys = await backend.sql("SELECT count(*)::int AS n FROM app.api_key WHERE wallet = $1", [user.address.toLowerCase()]);
    expect(keys).toEqual([{ n: 1 }]);
    const redemptions = await backend.sql("SELECT count(*)::int AS n FROM app.redemption WHERE tx_hash = $1", [receipt.transactionHash]);
    expect(redemptions).toEqual([{ n: 1 }]);
    const consumed = await backend.sql("SELECT count(*)::int AS n FROM app.intent WHERE consumed_at IS NOT NULL AND wallet = $1", [
      user.address.toLowerCase(),
    ]);
    expect(consumed).toEqual([{ n: 1 }]);
    console.info(`[concurrency ${backendName}] 200 claims of one txHash in ${Math.round(elapsed)} ms`);
  });

  test.each([
    ["payable route", "audit"],
    ["preflight route", "preflight"],
  ] as const)("behavior: a key with N credits under 4N concurrent calls of the %s serves exactly N", async (_name, route) => {
    const n = 25;
    await backend.sql("DELETE FROM app.credit_usage WHERE key_id = $1", [paid.keyId]);
    const self = await accessApp(manifest, backend).app.request("/v1/keys/self", { headers: { "x-api-key": paid.apiKey as string } });
    const cycle = 0;
    const day = Math.floor(Date.now() / 86_400_000);
    await backend.sql("INSERT INTO app.credit_usage (key_id, cycle, used, day, day_used) VALUES ($1, $2, $3, $4, 0)", [
      paid.keyId,
      cycle,
      10_000 - n,
      day,
    ]);
    expect(self.status).toBe(200);

    const apps = replicas(4).map((r) => r.app);
    const responses = await Promise.all(
      Array.from({ length: 4 * n }, (_, k) => call(apps[k % apps.length] as ReturnType<typeof createApp>, route, paid.apiKey as string)),
    );
    const served = responses.filter((r) => r.status === 200);
    expect(served).toHaveLength(n);
    expect(responses.filter((r) => r.status === 402)).toHaveLength(3 * n);
    for (const r of responses) {
      const remaining = Number(r.headers.get("x-credits-remaining"));
      expect(remaining).toBeGreaterThanOrEqual(0);
      if (r.status === 402) expect(((await r.json()) as { error: string }).error).toBe("CREDITS_EXHAUSTED");
    }
    expect(await backend.sql("SELECT used FROM app.credit_usage WHERE key_id = $1", [paid.keyId])).toEqual([{ used: 10_000 }]);
  });

  test("behavior: a free key's 10 a day under 40 concurrent calls: exactly 10, then 429 with Retry-After until UTC midnight", async () => {
    const { app } = accessApp(manifest, backend);
    const envelope = (await (await post(app, "/v1/subscribe/free/challenge", { userWallet: user.address })).json()) as IntentEnvelope;
    const issued = (await (
      await post(app, "/v1/subscribe/free/claim", {
        intentId: envelope.intent.intentId,
        signature: await sign(envelope.intent.messageToSign),
      })
    ).json()) as IssuedKey;
    rawKeys.push(issued.apiKey as string);
    const responses = await Promise.all(Array.from({ length: 40 }, () => call(app, "audit", issued.apiKey as string)));
    expect(responses.filter((r) => r.status === 200)).toHaveLength(10);
    const limited = responses.filter((r) => r.status === 429);
    expect(limited).toHaveLength(30);
    const retryAfter = Number(limited[0]?.headers.get("retry-after"));
    expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 86_400).toBe(true);
    expect(await limited[0]?.json()).toMatchObject({ error: "DAILY_LIMIT_REACHED" });
  });

  test("behavior: a failed answer is never charged", async () => {
    const { access, keyRoutes } = accessApp(manifest, backend);
    await backend.sql("DELETE FROM app.credit_usage WHERE key_id = $1", [paid.keyId]);
    // No provider answers: every metered route is 503 DATA_SOURCE_UNAVAILABLE.
    const down = { providers: [{ name: "down", url: "http://127.0.0.1:1", trusted: true }], chainId: 8453, samples: [] };
    const failing = createApp(testAppParameters(manifest, backend.indexDb, { access, keyRoutes, capability: down }));
    for (const route of ["audit", "preflight"] as const) {
      const res = await call(failing, route, paid.apiKey as string);
      expect(res.status).toBe(503);
      expect(await res.json()).toMatchObject({ error: "DATA_SOURCE_UNAVAILABLE" });
    }
    expect(await backend.sql("SELECT count(*)::int AS n FROM app.credit_usage WHERE key_id = $1", [paid.keyId])).toEqual([{ n: 0 }]);
  });

  test("behavior: the store and the logs hold no raw key", async () => {
    // The paid key and the free key this suite issued: a scan of nothing would prove nothing.
    expect(rawKeys).toHaveLength(2);
    for (const raw of rawKeys) expect(raw).toMatch(/^svc_test_/);
    const dump = await backend.dump();
    for (const raw of rawKeys) {
      expect(dump).not.toContain(raw);
      expect(logs.text()).not.toContain(raw);
    }
  });
});
