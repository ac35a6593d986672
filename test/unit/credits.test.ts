import { Hono } from "hono";
import { beforeAll, describe, expect, test } from "vitest";
import type { AccessEnv } from "../../api/access/AccessControlParameters";
import { chargeCredits } from "../../api/access/chargeCredits";
import { type CreditService, createCreditService, spendableNow } from "../../api/access/createCreditService";
import { answer, answerHeaders } from "../../api/http/answer";
import { handleError } from "../../api/http/errorHandling";
import type { Tier } from "../../api/keys/planCatalogue";
import { insertKey, type KeyInfo } from "../../api/store/keyQueries";
import { fileAppStore } from "../support/fileAppStore";

const dayMs = 86_400_000;
/** Issuance of every test key: mid-afternoon UTC, with milliseconds. */
const anchor = new Date("2026-03-10T15:20:30.250Z");

const store = fileAppStore();
let clockAt = anchor.getTime();
const clock = () => new Date(clockAt);
let credits: CreditService;
let serial = 0;

beforeAll(async () => {
  credits = createCreditService({ db: store.db, clock });
});

/** A fresh key of `tier` issued at `anchor`, its clock set to `at`. */
async function newKey(tier: Tier, at = anchor.getTime()): Promise<KeyInfo> {
  clockAt = at;
  serial += 1;
  const row = await insertKey(store.db, {
    id: `key_unit${String(serial).padStart(20, "0")}`,
    secretHash: `hash-${serial}`,
    tier,
    wallet: `0x${String(serial).padStart(40, "0")}`,
    issuedAt: anchor,
    expiresAt: tier === "FREE" ? null : new Date(anchor.getTime() + 31 * dayMs),
    cycleAnchor: anchor,
  });
  if (!row) throw new Error("key not inserted");
  const { secretHash: _, ...info } = row;
  return info;
}

/** A free key on the 30th day of its cycle with 299 credits used, 10 of them today: 1 left in the cycle, 0 today. */
async function spentFreeKey(): Promise<KeyInfo> {
  const key = await newKey("FREE");
  for (let day = 0; day < 30; day++) {
    clockAt = anchor.getTime() + day * dayMs;
    if (!(await credits.charge(key, day === 28 ? 9 : 10)).ok) throw new Error(`day ${day} refused`);
  }
  return key;
}

describe("createCreditService", () => {
  test("a fresh free key: 300 credits for the cycle from its issuance, 10 for the UTC day", async () => {
    const key = await newKey("FREE");
    expect(await credits.balance(key)).toEqual({
      cycleStartedAt: "2026-03-10T15:20:30.250Z",
      cycleEndsAt: "2026-04-10T15:20:30.250Z",
      allowance: 300,
      used: 0,
      remaining: 300,
      daily: { limit: 10, used: 0, remaining: 10, resetsAt: "2026-03-11T00:00:00.000Z" },
    });
  });

  test("a free key spends its day's 10, is refused the 11th (DAILY_LIMIT), and spends again the next UTC day", async () => {
    const key = await newKey("FREE");
    const first = await credits.charge(key, 1);
    expect(first).toMatchObject({ ok: true, balance: { used: 1, remaining: 299, daily: { used: 1, remaining: 9 } } });
    expect(await credits.charge(key, 9)).toMatchObject({ ok: true, balance: { used: 10, daily: { remaining: 0 } } });
    expect(await credits.charge(key, 1)).toMatchObject({ ok: false, reason: "DAILY_LIMIT", balance: { used: 10, remaining: 290 } });
    expect(await credits.balance(key)).toMatchObject({ used: 10, daily: { used: 10, remaining: 0 } });
    clockAt = Date.parse("2026-03-11T00:00:00.000Z");
    expect(await credits.balance(key)).toMatchObject({ used: 10, daily: { used: 0, remaining: 10, resetsAt: "2026-03-12T00:00:00.000Z" } });
    expect(await credits.charge(key, 2)).toMatchObject({ ok: true, balance: { used: 12, daily: { used: 2, remaining: 8 } } });
  });

  test("a paid key has no daily cap; its cycle's allowance is spent to the last credit, then refused until the next cycle", async () => {
    const key = await newKey("STARTER");
    expect((await credits.balance(key)).daily).toBeNull();
    expect(await credits.charge(key, 10_000)).toMatchObject({ ok: true, balance: { used: 10_000, remaining: 0, daily: null } });
    expect(await credits.charge(key, 1)).toMatchObject({ ok: false, reason: "CYCLE_EXHAUSTED", balance: { remaining: 0 } });
    clockAt = anchor.getTime() + 31 * dayMs - 1;
    expect(await credits.balance(key)).toMatchObject({ cycleStartedAt: "2026-03-10T15:20:30.250Z", used: 10_000 });
    clockAt = anchor.getTime() + 31 * dayMs;
    expect(await credits.balance(key)).toMatchObject({
      cycleStartedAt: "2026-04-10T15:20:30.250Z",
      cycleEndsAt: "2026-05-11T15:20:30.250Z",
      used: 0,
      remaining: 10_000,
    });
    expect(await credits.charge(key, 3)).toMatchObject({ ok: true, balance: { used: 3, remaining: 9_997 } });
  });

  test("a cost above the cycle's allowance or the day's cap is refused without spending anything", async () => {
    const paid = await newKey("STARTER");
    expect(await credits.charge(paid, 10_001)).toMatchObject({ ok: false, reason: "CYCLE_EXHAUSTED", balance: { used: 0 } });
    expect(await credits.balance(paid)).toMatchObject({ used: 0 });
    const free = await newKey("FREE");
    expect(await credits.charge(free, 11)).toMatchObject({ ok: false, reason: "DAILY_LIMIT", balance: { used: 0 } });
    expect(await credits.balance(free)).toMatchObject({ used: 0, daily: { used: 0 } });
    expect(await credits.charge(free, 10)).toMatchObject({ ok: true, balance: { used: 10 } });
  });

  test("a free key whose cycle is spent is refused CYCLE_EXHAUSTED even on a fresh day", async () => {
    const key = await newKey("FREE");
    for (let day = 0; day < 30; day++) {
      clockAt = anchor.getTime() + day * dayMs;
      expect((await credits.charge(key, 10)).ok, `day ${day}`).toBe(true);
    }
    clockAt = anchor.getTime() + 30 * dayMs;
    expect(await credits.balance(key)).toMatchObject({ used: 300, remaining: 0, daily: { used: 0, remaining: 10 } });
    expect(await credits.charge(key, 1)).toMatchObject({ ok: false, reason: "CYCLE_EXHAUSTED" });
  });

  test("a free key short on both the cycle and the day is refused CYCLE_EXHAUSTED; short on the day alone, DAILY_LIMIT", async () => {
    const key = await spentFreeKey();
    expect(await credits.balance(key)).toMatchObject({ used: 299, remaining: 1, daily: { remaining: 0 } });
    expect(await credits.charge(key, 2)).toMatchObject({ ok: false, reason: "CYCLE_EXHAUSTED" });
    expect(await credits.charge(key, 1)).toMatchObject({ ok: false, reason: "DAILY_LIMIT" });
  });

  test("a clock behind the key's issuance (a lagging replica) counts in the first cycle", async () => {
    const key = await newKey("GROWTH", anchor.getTime() - 2 * dayMs);
    expect(await credits.balance(key)).toMatchObject({ cycleStartedAt: "2026-03-10T15:20:30.250Z", used: 0, remaining: 100_000 });
  });

  test("spendableNow: the cycle's remainder, capped by the day's for free keys", () => {
    const base = { cycleStartedAt: "", cycleEndsAt: "", allowance: 300, used: 0 };
    expect(spendableNow({ ...base, remaining: 7, daily: null })).toBe(7);
    expect(spendableNow({ ...base, remaining: 7, daily: { limit: 10, used: 5, remaining: 5, resetsAt: "" } })).toBe(5);
    expect(spendableNow({ ...base, remaining: 3, daily: { limit: 10, used: 0, remaining: 10, resetsAt: "" } })).toBe(3);
  });
});

/** How the metered handler builds its answer: through Hono (charged on `c.res` after it) or with `answer` (charged before it is built). */
type Builder = "c.json" | "answer";

/** An app metering `cost` for `principal`; the handler answers `?status=` (built by `builder`) and may first run `during`. */
function meteredApp(builder: Builder, principal: AccessEnv["Variables"]["principal"], cost: number, during?: () => Promise<unknown>) {
  let handled = 0;
  const app = new Hono<AccessEnv>();
  app.onError((err, c) => handleError(err, c, () => {}));
  app.use(answerHeaders());
  app.use(async (c, next) => {
    c.set("principal", principal);
    await next();
  });
  app.use(chargeCredits({ credits, cost, storeReady: Promise.resolve(), clock }));
  app.get("/", async (c) => {
    handled += 1;
    await during?.();
    const status = Number(c.req.query("status") ?? 200) as 200;
    if (builder === "c.json") return c.json({ answer: 42 }, status);
    return answer(c, JSON.stringify({ answer: 42 }), status, { "content-type": "application/json" });
  });
  return { app, handled: () => handled };
}

const asKey = (key: KeyInfo) => ({ kind: "apiKey" as const, keyId: key.id, key });

describe.each(["c.json", "answer"] as const)("chargeCredits, the handler building its answer with %s", (builder) => {
  test("a 2xx answer is charged once, after it is ready; the header shows what is left", async () => {
    const key = await newKey("STARTER");
    const { app } = meteredApp(builder, asKey(key), 4);
    const res = await app.request("/");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ answer: 42 });
    expect(res.headers.get("X-Credits-Remaining")).toBe("9996");
    expect(await credits.balance(key)).toMatchObject({ used: 4 });
  });

  test("answers outside 2xx are not charged, and show the credits left before them", async () => {
    const key = await newKey("STARTER");
    const { app } = meteredApp(builder, asKey(key), 4);
    for (const status of [300, 404, 500]) {
      const res = await app.request(`/?status=${status}`);
      expect(res.status).toBe(status);
      expect(res.headers.get("X-Credits-Remaining"), String(status)).toBe("10000");
    }
    expect((await app.request("/?status=299")).status).toBe(299);
    expect(await credits.balance(key)).toMatchObject({ used: 4 });
  });

  test("a key that can pay exactly the cost is served; one that cannot is refused 402 before any work", async () => {
    const key = await newKey("STARTER");
    await credits.charge(key, 9_995);
    const { app, handled } = meteredApp(builder, asKey(key), 5);
    const served = await app.request("/");
    expect(served.status).toBe(200);
    expect(served.headers.get("X-Credits-Remaining")).toBe("0");
    const refused = await app.request("/");
    expect(refused.status).toBe(402);
    expect(handled()).toBe(1);
    expect(refused.headers.get("X-Credits-Remaining")).toBe("0");
    expect(await refused.json()).toEqual({
      error: "CREDITS_EXHAUSTED",
      message: "this key's 10000 credits for the cycle ending 2026-04-10T15:20:30.250Z are used; upgrade, or wait for the next cycle",
      cycleEndsAt: "2026-04-10T15:20:30.250Z",
    });
  });

  test("a free key whose day is spent gets 429 with Retry-After until the next UTC midnight", async () => {
    const key = await newKey("FREE");
    await credits.charge(key, 10);
    clockAt = Date.parse("2026-03-10T23:59:58.500Z");
    const { app, handled } = meteredApp(builder, asKey(key), 1);
    const res = await app.request("/");
    expect(res.status).toBe(429);
    expect(handled()).toBe(0);
    expect(res.headers.get("Retry-After")).toBe("2");
    expect(res.headers.get("X-Credits-Remaining")).toBe("0");
    expect(await res.json()).toEqual({
      error: "DAILY_LIMIT_REACHED",
      message: "this free key's 10 decisions for today are used; they renew at 2026-03-11T00:00:00.000Z",
      resetsAt: "2026-03-11T00:00:00.000Z",
      retryable: true,
    });
  });

  test("Retry-After is at least one second", async () => {
    const key = await newKey("FREE");
    await credits.charge(key, 10);
    clockAt = Date.parse("2026-03-10T23:59:59.999Z");
    const { app } = meteredApp(builder, asKey(key), 1);
    expect((await app.request("/")).headers.get("Retry-After")).toBe("1");
  });

  test("a charge lost to a concurrent call replaces the answer with the refusal", async () => {
    const key = await newKey("FREE");
    await credits.charge(key, 8);
    const { app } = meteredApp(builder, asKey(key), 2, () => credits.charge(key, 1));
    const res = await app.request("/");
    expect(res.status).toBe(429);
    expect(await res.json()).toMatchObject({ error: "DAILY_LIMIT_REACHED" });
    expect(res.headers.get("Retry-After")).toBe(String(Math.ceil((Date.parse("2026-03-11T00:00:00.000Z") - anchor.getTime()) / 1000)));
    expect(await credits.balance(key)).toMatchObject({ used: 9 });
    // The balance as it stands after the concurrent spend, not as the request found it (2).
    expect(res.headers.get("X-Credits-Remaining")).toBe("1");
  });

  test("the marketplace gateway's users are not metered here", async () => {
    const { app } = meteredApp(builder, { kind: "gateway", user: "u", subscription: "s", host: "h" }, 1_000_000);
    const res = await app.request("/");
    expect(res.status).toBe(200);
    expect(res.headers.get("X-Credits-Remaining")).toBeNull();
  });

  test("a free key with one credit left in the cycle and none today gets 429 for a cost of 1, 402 for a cost of 2", async () => {
    const key = await spentFreeKey();
    const daily = await meteredApp(builder, asKey(key), 1).app.request("/");
    expect(daily.status).toBe(429);
    expect(await daily.json()).toMatchObject({ error: "DAILY_LIMIT_REACHED" });
    const cycle = await meteredApp(builder, asKey(key), 2).app.request("/");
    expect(cycle.status).toBe(402);
    expect(await cycle.json()).toMatchObject({ error: "CREDITS_EXHAUSTED" });
  });

  test("a paid key's answer whose charge is lost to a concurrent spend is replaced by the 402 refusal", async () => {
    const key = await newKey("STARTER");
    await credits.charge(key, 9_997);
    const raced = await meteredApp(builder, asKey(key), 3, () => credits.charge(key, 1)).app.request("/");
    expect(raced.status).toBe(402);
    expect(await raced.json()).toMatchObject({ error: "CREDITS_EXHAUSTED" });
    expect(await credits.balance(key)).toMatchObject({ used: 9_998 });
  });
});
