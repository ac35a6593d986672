import type { Address } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { createApp } from "../../api/app";
import { defaultAbuseLimits } from "../../api/env/EnvSchema";
import type { IntentEnvelope } from "../../api/keys/records";
import { intentPurgeBatchSize, openIntentExpiries, purgeExpiredIntents } from "../../api/store/intentQueries";
import { unlimitedAbuse } from "../support/access";
import { testManifest } from "../support/devnet";
import { accessApp, type Backend, backendNames, openBackend, post } from "./support";

/** This file's wallets are generated here (no transactions; the one claim is signed locally). */
const manifest = testManifest();
const freshWallet = () => privateKeyToAccount(generatePrivateKey());

type App = ReturnType<typeof createApp>;
/** The three routes that store an intent, with the status each answers when it does. */
const intentRoutes = {
  free: { path: "/v1/subscribe/free/challenge", created: 200, body: (w: Address) => ({ userWallet: w }) },
  recovery: { path: "/v1/keys/recovery/challenge", created: 202, body: (w: Address) => ({ userWallet: w }) },
  purchase: { path: "/v1/subscribe/intents", created: 200, body: (w: Address) => ({ tier: "STARTER", userWallet: w }) },
} as const;
const createIntent = (app: App, kind: keyof typeof intentRoutes, wallet: Address, headers: Record<string, string> = {}) =>
  post(app, intentRoutes[kind].path, intentRoutes[kind].body(wallet), headers);

describe.each(backendNames)("intent limits on %s", (backendName) => {
  let backend: Backend;
  beforeAll(async () => {
    backend = await openBackend(backendName);
  });
  afterAll(() => backend.close());

  const cappedApp = (n = 0) =>
    accessApp(
      manifest,
      { ...backend, store: backend.replica(n) },
      {
        limits: { ...unlimitedAbuse, maxOpenIntentsPerWallet: defaultAbuseLimits.maxOpenIntentsPerWallet },
      },
    ).app;
  const openCount = async (wallet: Address) =>
    (
      (await backend.sql("SELECT count(*)::int AS n FROM app.intent WHERE wallet = $1 AND consumed_at IS NULL AND expires_at > now()", [
        wallet.toLowerCase(),
      ])) as { n: number }[]
    )[0]?.n;

  test("behavior: a wallet holds at most 20 open intents of all kinds; the next is 429 TOO_MANY_OPEN_INTENTS with Retry-After", async () => {
    const app = cappedApp();
    const wallet = freshWallet();
    const created: IntentEnvelope["intent"][] = [];
    const kinds = [...Array(10).fill("free"), ...Array(5).fill("recovery"), ...Array(5).fill("purchase")] as (keyof typeof intentRoutes)[];
    for (const kind of kinds) {
      const res = await createIntent(app, kind, wallet.address);
      expect(res.status, kind).toBe(intentRoutes[kind].created);
      created.push(((await res.json()) as IntentEnvelope).intent);
    }
    const refused = await createIntent(app, "purchase", wallet.address);
    expect(refused.status).toBe(429);
    const body = (await refused.json()) as { error: string; message: string; retryAfterSeconds: number };
    expect(body).toMatchObject({ error: "TOO_MANY_OPEN_INTENTS", retryable: true });
    expect(body.message).toContain("20 open intents");
    expect(refused.headers.get("retry-after")).toMatch(/^[1-9]\d*$/);
    expect(Number(refused.headers.get("retry-after"))).toBe(body.retryAfterSeconds);
    expect(body.retryAfterSeconds).toBeLessThanOrEqual(15 * 60);
    expect((await createIntent(app, "free", freshWallet().address)).status).toBe(200);
    expect(await openCount(wallet.address)).toBe(20);

    // A claimed intent is no longer open: one more fits.
    const first = created[0] as IntentEnvelope["intent"];
    const claim = await post(app, "/v1/subscribe/free/claim", {
      intentId: first.intentId,
      signature: await wallet.signMessage({ message: first.messageToSign }),
    });
    expect(claim.status).toBe(200);
    expect((await createIntent(app, "recovery", wallet.address)).status).toBe(202);
    expect((await createIntent(app, "recovery", wallet.address)).status).toBe(429);

    // Expired intents do not count either.
    const expired = created.slice(1, 4).map((i) => i.intentId);
    await backend.sql("UPDATE app.intent SET expires_at = now() - interval '1 minute' WHERE id = ANY($1)", [expired]);
    for (let n = 0; n < 3; n += 1) expect((await createIntent(app, "free", wallet.address)).status).toBe(200);
    expect((await createIntent(app, "free", wallet.address)).status).toBe(429);
    expect(await openCount(wallet.address)).toBe(20);
  });

  test("behavior: 30 concurrent intents for one wallet over 3 replicas store exactly 20", async () => {
    const apps = [cappedApp(0), cappedApp(1), cappedApp(2)];
    const wallet = freshWallet();
    const responses = await Promise.all(
      Array.from({ length: 30 }, (_, n) => createIntent(apps[n % apps.length] as App, "purchase", wallet.address)),
    );
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(20);
    expect(statuses.filter((s) => s === 429)).toHaveLength(10);
    expect(await openCount(wallet.address)).toBe(20);
  });

  test("behavior: an address creates at most its hourly intents on all three routes; answers that store none give theirs back", async () => {
    const { app } = accessApp(manifest, backend, {
      clientIpHeader: "x-forwarded-for",
      limits: { ...unlimitedAbuse, maxOpenIntentsPerWallet: 1, maxIntentsPerClientPerHour: 3 },
    });
    const from = (ip: string) => ({ "x-forwarded-for": ip });
    const capped = freshWallet().address;
    expect((await createIntent(app, "free", capped, from("203.0.113.1"))).status).toBe(200);
    // Refused by the wallet's cap, or by the body's schema: nothing stored, nothing spent.
    expect((await createIntent(app, "free", capped, from("203.0.113.1"))).status).toBe(429);
    expect((await post(app, intentRoutes.free.path, { userWallet: "0x12" }, from("203.0.113.1"))).status).toBe(400);
    expect((await createIntent(app, "recovery", freshWallet().address, from("203.0.113.1"))).status).toBe(202);
    expect((await createIntent(app, "purchase", freshWallet().address, from("203.0.113.1"))).status).toBe(200);
    const limited = await createIntent(app, "free", freshWallet().address, from("203.0.113.1"));
    expect(limited.status).toBe(429);
    expect(await limited.json()).toMatchObject({ error: "INTENT_RATE_LIMITED", retryable: true });
    expect(limited.headers.get("retry-after")).toMatch(/^[1-9]\d*$/);
    expect(Number(limited.headers.get("retry-after"))).toBeLessThanOrEqual(3600);
    expect((await createIntent(app, "recovery", freshWallet().address, from("203.0.113.1"))).status).toBe(429);
    expect((await createIntent(app, "free", freshWallet().address, from("203.0.113.2"))).status).toBe(200);
  });

  test("behavior: each insert purges at most 500 intents past their retention, by kind, and nothing else", async () => {
    // 800 due (600 challenges a day past expiry, 200 purchases 30 days past), 350 not (recent purchases, consumed).
    await backend.sql(`
      INSERT INTO app.intent (id, kind, wallet, message, created_at, expires_at, consumed_at)
      SELECT 'due-challenge-' || n, CASE WHEN n % 2 = 0 THEN 'FREE' ELSE 'RECOVERY' END, 'purge-test', 'm',
             now() - interval '2 days', now() - interval '25 hours', NULL::timestamptz FROM generate_series(1, 600) n
      UNION ALL
      SELECT 'due-purchase-' || n, 'PURCHASE', 'purge-test', 'm', now() - interval '32 days', now() - interval '31 days', NULL
      FROM generate_series(1, 200) n
      UNION ALL
      SELECT 'kept-purchase-' || n, 'PURCHASE', 'purge-test', 'm', now() - interval '3 days', now() - interval '2 days', NULL
      FROM generate_series(1, 300) n
      UNION ALL
      SELECT 'kept-consumed-' || n, 'FREE', 'purge-test', 'm', now() - interval '40 days', now() - interval '40 days',
             now() - interval '40 days' FROM generate_series(1, 50) n`);
    const left = async () =>
      Object.fromEntries(
        (
          (await backend.sql(
            "SELECT split_part(id, '-', 1) || '-' || split_part(id, '-', 2) AS class, count(*)::int AS n FROM app.intent WHERE wallet = 'purge-test' GROUP BY 1",
          )) as { class: string; n: number }[]
        ).map((r) => [r.class, r.n]),
      );
    const app = accessApp(manifest, backend).app;
    expect((await createIntent(app, "free", freshWallet().address)).status).toBe(200);
    const afterOne = await left();
    expect((afterOne["due-challenge"] ?? 0) + (afterOne["due-purchase"] ?? 0)).toBe(800 - intentPurgeBatchSize);
    expect(afterOne).toMatchObject({ "kept-purchase": 300, "kept-consumed": 50 });
    expect((await createIntent(app, "recovery", freshWallet().address)).status).toBe(202);
    expect(await left()).toEqual({ "kept-purchase": 300, "kept-consumed": 50 });
  });

  test("behavior: the purge finds the rows due and the cap counts a wallet's open intents through their indexes (EXPLAIN)", async () => {
    await backend.sql(`
      INSERT INTO app.intent (id, kind, wallet, message, created_at, expires_at)
      SELECT 'bulk-' || n, (ARRAY['FREE', 'PURCHASE', 'RECOVERY'])[1 + n % 3], '0x' || lpad(to_hex(n), 40, '0'), 'm',
             now(), now() + interval '15 minutes' FROM generate_series(1, 20000) n`);
    await backend.sql("ANALYZE app.intent");
    const explain = async (query: { toSQL(): { sql: string; params: unknown[] } }) => {
      const { sql, params } = query.toSQL();
      const rows = (await backend.sql(`EXPLAIN ${sql}`, params)) as { "QUERY PLAN": string }[];
      return rows.map((r) => r["QUERY PLAN"]).join("\n");
    };
    const now = new Date();
    const purge = await explain(purgeExpiredIntents(backend.store.db, now));
    // The rows due are found under the Limit through the index; the delete then matches them by id
    // (a pkey lookup per row, or on a table this small a hash of the ids: the planner's choice).
    const selection = purge.slice(purge.indexOf("Limit"));
    expect(selection).toMatch(/Index Scan (on|using) intent_purge_idx/);
    expect(selection).not.toMatch(/Seq Scan/);
    expect(purge).toMatch(/Cond: \((intent\.)?id = "ANY_subquery"\.id\)/);
    const open = await explain(openIntentExpiries(backend.store.db, `0x${"1".padStart(40, "0")}`, now, 20));
    expect(open).toMatch(/Index (Only )?Scan (Backward )?(on|using) intent_open_by_wallet_idx/);
    expect(open).not.toMatch(/Seq Scan/);
  });
});
