import { randomBytes } from "node:crypto";
import { once } from "node:events";
import type { Redis } from "ioredis";
import { afterAll, afterEach, describe, expect, test, vi } from "vitest";
import { connectRedis } from "../../api/access/connectRedis";
import { createRateLimits, defaultRatePerMinute, type RateScope } from "../../api/access/createRateLimits";
import { defaultMcpLimits } from "../../api/env/EnvSchema";
import { tierTerms } from "../../api/keys/planCatalogue";

/** Small budgets, a different one per scope, so a scope answering from another's budget shows. */
const perMinute: Record<RateScope, number> = { FREE: 3, STARTER: 4, GROWTH: 5, PRO: 6, GATEWAY: 7, PUBLIC: 2, MCP: 8 };
const scopes = Object.keys(perMinute) as RateScope[];

afterEach(() => {
  vi.useRealTimers();
});

describe("createRateLimits (process memory)", () => {
  test("default: the per-minute table is the plan catalogue's rates per tier, GATEWAY 1200, PUBLIC 60 and MCP 300", () => {
    expect(defaultRatePerMinute).toEqual({
      FREE: tierTerms.FREE.rateLimitPerMinute,
      STARTER: tierTerms.STARTER.rateLimitPerMinute,
      GROWTH: tierTerms.GROWTH.rateLimitPerMinute,
      PRO: tierTerms.PRO.rateLimitPerMinute,
      GATEWAY: 1200,
      PUBLIC: 60,
      MCP: defaultMcpLimits.requestsPerMinute,
    });
    expect(defaultRatePerMinute).toEqual({ FREE: 30, STARTER: 120, GROWTH: 600, PRO: 1200, GATEWAY: 1200, PUBLIC: 60, MCP: 300 });
  });

  test("default: without perMinute each scope's budget is the default table's", async () => {
    const limits = createRateLimits();
    for (const scope of scopes) {
      expect(await limits.consume(scope, "client-1")).toEqual({ ok: true, remaining: defaultRatePerMinute[scope] - 1 });
    }
  });

  test("behavior: each scope has its own budget; the remaining count falls by exactly one per request, then requests are refused", async () => {
    const limits = createRateLimits({ perMinute });
    for (const scope of scopes) {
      const answers = [];
      for (let n = 0; n <= perMinute[scope]; n += 1) answers.push(await limits.consume(scope, "id-1"));
      const expected = [];
      for (let left = perMinute[scope] - 1; left >= 0; left -= 1) expected.push({ ok: true, remaining: left });
      expect(answers.slice(0, -1)).toEqual(expected);
      expect(answers.at(-1)).toMatchObject({ ok: false });
    }
  });

  test("behavior: separate ids, and the same id in separate scopes, do not share a budget", async () => {
    const limits = createRateLimits({ perMinute });
    expect(await limits.consume("FREE", "a")).toEqual({ ok: true, remaining: 2 });
    expect(await limits.consume("FREE", "a")).toEqual({ ok: true, remaining: 1 });
    expect(await limits.consume("FREE", "b")).toEqual({ ok: true, remaining: 2 });
    expect(await limits.consume("PRO", "a")).toEqual({ ok: true, remaining: 5 });
    expect(await limits.consume("PUBLIC", "a")).toEqual({ ok: true, remaining: 1 });
    expect(await limits.consume("FREE", "a")).toEqual({ ok: true, remaining: 0 });
    expect((await limits.consume("FREE", "a")).ok).toBe(false);
    expect(await limits.consume("FREE", "b")).toEqual({ ok: true, remaining: 1 });
    // Another RateLimits keeps budgets of its own.
    expect(await createRateLimits({ perMinute }).consume("FREE", "a")).toEqual({ ok: true, remaining: 2 });
  });

  test("behavior: a refusal says when to retry, in whole seconds rounded up (1 to 60); the budget is whole again after the minute", async () => {
    vi.useFakeTimers({ now: new Date("2025-01-01T00:00:00.000Z") });
    const limits = createRateLimits({ perMinute });
    for (let n = 0; n < perMinute.PUBLIC; n += 1) expect((await limits.consume("PUBLIC", "c")).ok).toBe(true);
    expect(await limits.consume("PUBLIC", "c")).toEqual({ ok: false, retryAfterSeconds: 60 });
    vi.advanceTimersByTime(500);
    expect(await limits.consume("PUBLIC", "c")).toEqual({ ok: false, retryAfterSeconds: 60 });
    vi.advanceTimersByTime(20_000);
    expect(await limits.consume("PUBLIC", "c")).toEqual({ ok: false, retryAfterSeconds: 40 });
    vi.advanceTimersByTime(39_200);
    expect(await limits.consume("PUBLIC", "c")).toEqual({ ok: false, retryAfterSeconds: 1 });
    vi.advanceTimersByTime(299);
    expect(await limits.consume("PUBLIC", "c")).toEqual({ ok: false, retryAfterSeconds: 1 });
    vi.advanceTimersByTime(1);
    expect(await limits.consume("PUBLIC", "c")).toEqual({ ok: true, remaining: 1 });
  });

  test("error: a scope without a budget throws", async () => {
    const limits = createRateLimits({ perMinute });
    await expect(limits.consume("NOPE" as RateScope, "a")).rejects.toThrow(new Error("no rate limit for NOPE"));
    const onlyFree = createRateLimits({ perMinute: { FREE: 1 } as Record<RateScope, number> });
    await expect(onlyFree.consume("PUBLIC", "a")).rejects.toThrow(new Error("no rate limit for PUBLIC"));
  });

  test("error: a failure while consuming (here an id that cannot be made a key) is thrown, never answered as a refusal", async () => {
    const limits = createRateLimits({ perMinute });
    const unkeyable = {
      toString(): string {
        throw new Error("no key for this id");
      },
    } as unknown as string;
    await expect(limits.consume("FREE", unkeyable)).rejects.toThrow(new Error("no key for this id"));
  });
});

// With REDIS_URL, as every Redis test (`.ci/run` sets it; `npm run mutate` needs it to test the Redis choice).
describe.runIf(process.env.REDIS_URL)("createRateLimits (with Redis: which budgets it holds)", () => {
  /** Ids unique to this run, so runs sharing the server never share a budget. */
  const redisUrl = process.env.REDIS_URL as string;
  const run = randomBytes(6).toString("hex");
  const clients: Redis[] = [];
  /** A client of `url`; `ready`: once connected (without an offline queue, commands sent before fail over to memory). */
  const connect = async (url: string, { ready = true } = {}) => {
    const redis = connectRedis(url);
    clients.push(redis);
    if (ready) await once(redis, "ready");
    return redis;
  };
  afterAll(() => {
    for (const redis of clients) redis.disconnect();
  });

  test("behavior: keyed budgets are counted in Redis under svc_rl_<scope>:<id>; per-address (PUBLIC, MCP) ones stay in memory", async () => {
    const redis = await connect(redisUrl);
    const id = `unit_${run}`;
    const limits = createRateLimits({ redis, perMinute });
    for (const scope of scopes) expect(await limits.consume(scope, id)).toEqual({ ok: true, remaining: perMinute[scope] - 1 });
    for (const scope of scopes) {
      expect(await redis.get(`svc_rl_${scope.toLowerCase()}:${id}`), scope).toBe(scope === "PUBLIC" || scope === "MCP" ? null : "1");
    }
    // A second replica (another client, another limiter) draws from the same keyed budget.
    const replica = createRateLimits({ redis: await connect(redisUrl), perMinute });
    expect(await replica.consume("FREE", id)).toEqual({ ok: true, remaining: 1 });
    expect(await limits.consume("FREE", id)).toEqual({ ok: true, remaining: 0 });
    // The window started at the first call, a few round trips ago (an unknown time on a starved machine).
    const refused = await replica.consume("FREE", id);
    expect(refused).toEqual({ ok: false, retryAfterSeconds: expect.any(Number) });
    expect(refused.ok === false && refused.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(refused.ok === false && refused.retryAfterSeconds).toBeLessThanOrEqual(60);
    expect(await replica.consume("PUBLIC", id)).toEqual({ ok: true, remaining: 1 });
    await redis.del(...scopes.map((scope) => `svc_rl_${scope.toLowerCase()}:${id}`));
  });

  test("behavior: an unreachable Redis degrades to this process's budgets, never to an error", async () => {
    // A port nothing listens on: every command fails at once (no offline queue).
    const limits = createRateLimits({ redis: await connect("redis://127.0.0.1:1", { ready: false }), perMinute });
    const id = `down_${run}`;
    expect(await limits.consume("FREE", id)).toEqual({ ok: true, remaining: 2 });
    expect(await limits.consume("FREE", id)).toEqual({ ok: true, remaining: 1 });
    expect(await limits.consume("FREE", id)).toEqual({ ok: true, remaining: 0 });
    expect((await limits.consume("FREE", id)).ok).toBe(false);
  });
});
