/**
 * The access path alone, for bench/access.bench.ts: one metered route (`GET /metered`, 1 credit)
 * behind the service's own middleware in the mounter's order (`requirePayment`: credential, cached key
 * lookup, failed-authentication budget, rate limit; then `chargeCredits`: the credit check and the leased
 * charge), answering a constant built with `answer` as the price route's is (under `answerHeaders`),
 * and the same answer without them (`GET /open`), on our own listener, over a real app store (PGlite in a temporary
 * folder, or DATABASE_URL; Redis limits with REDIS_URL). It stores KEYS (default 1) PRO keys whose
 * per-minute limit is raised as TIER_RATE_LIMITS would (still checked on every call).
 * Usage: `tsx bench/accessServer.ts PORT [KEYS]`; prints `listening <raw key>,<raw key>...` once bound;
 * SIGINT gives the leased credits back and exits.
 */

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import { type Context, Hono } from "hono";
import type { AccessEnv } from "../api/access/AccessControlParameters";
import { chargeCredits } from "../api/access/chargeCredits";
import { connectRedis } from "../api/access/connectRedis";
import { createAccessServices } from "../api/access/createAccessServices";
import { createRateLimits, defaultRatePerMinute } from "../api/access/createRateLimits";
import { requirePayment } from "../api/access/requirePayment";
import { answer, answerHeaders } from "../api/http/answer";
import { handleError } from "../api/http/errorHandling";
import type { IndexDb } from "../api/index/indexDb";
import { startPublicListener } from "../api/listener/startPublicListener";
import { createAppStore } from "../api/store/createAppStore";
import { storeProKey } from "./storeProKey";

const port = Number(process.argv[2]);
const keyCount = Number(process.argv[3] ?? 1);
const pepper = "bench-pepper-0123456789abcdef0123456789abcdef";
const databaseUrl = process.env.DATABASE_URL || undefined;
const redisUrl = process.env.REDIS_URL || undefined;

const dir = mkdtempSync(join(tmpdir(), "svc-access-bench-"));
const store = createAppStore(databaseUrl ? { kind: "postgres", url: databaseUrl } : { kind: "pglite", directory: join(dir, "app") });
await store.ready;
const index = new PGlite();
const rates = { ...defaultRatePerMinute, PRO: 6_000_000 };
const { access } = createAccessServices({
  store,
  origins: { public: `http://127.0.0.1:${port}`, fallback: undefined },
  pepper,
  environment: "test",
  chainId: 8453,
  // Nothing on this path reads the chain.
  providers: [{ name: "none", url: "http://127.0.0.1:1", trusted: true }],
  indexDb: drizzle(index) as unknown as IndexDb,
  payTo: null,
  ethQuote: { weiPerUsd: async () => null },
  rateLimits: createRateLimits({ redis: redisUrl ? connectRedis(redisUrl) : undefined, perMinute: rates }),
  rates,
});

const raws: string[] = [];
for (let i = 0; i < keyCount; i++) raws.push((await storeProKey(store.db, pepper)).raw);

const app = new Hono<AccessEnv>();
app.onError((err, c) => handleError(err, c));
app.use(answerHeaders());
const constant = (c: Context) => answer(c, JSON.stringify({ answer: 42 }), 200, { "content-type": "application/json" });
app.get("/open", constant);
const metered = { name: "metered", method: "get", path: "/metered", summary: "a constant, 1 credit", access: "apiKeyOrX402" } as const;
app.get(
  "/metered",
  requirePayment({ ...access, plansUrl: "/v1/plans", x402: null })(metered),
  chargeCredits({ ...access, cost: 1 }),
  constant,
);
const listener = await startPublicListener({ host: "127.0.0.1", port, app });
console.log(`listening ${raws.join(",")}`);

process.once("SIGINT", async () => {
  await listener.close();
  await access.credits.release();
  await store.close();
  await index.close();
  rmSync(dir, { recursive: true, force: true });
  process.exit(0);
});
