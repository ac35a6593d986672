import type { Redis } from "ioredis";
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";
import { defaultMcpLimits } from "../env/EnvSchema";
import type { Tier } from "../keys/planCatalogue";
import { catalogueRates } from "../keys/toIssuedKey";

/**
 * Who a per-minute budget belongs to: a key's tier, the marketplace gateway, an unauthenticated client on
 * the keyless routes, or a client address on the MCP endpoints (a budget apart from the keyless routes').
 */
export type RateScope = Tier | "GATEWAY" | "PUBLIC" | "MCP";

/** Requests per minute per key, per gateway user, and per client address (keyless routes; MCP endpoints). */
export const defaultRatePerMinute: Record<RateScope, number> = {
  ...catalogueRates,
  GATEWAY: 1200,
  PUBLIC: 60,
  MCP: defaultMcpLimits.requestsPerMinute,
};

export type RateDecision = { ok: true; remaining: number } | { ok: false; retryAfterSeconds: number };

export type RateLimits = {
  /** Takes one request from `id`'s budget of this minute in `scope`. */
  consume(scope: RateScope, id: string): Promise<RateDecision>;
};

export type CreateRateLimitsParameters = {
  /** Shared budgets across replicas; absent: process memory. Per-address budgets (PUBLIC, MCP) stay in memory. */
  redis?: Redis;
  perMinute?: Record<RateScope, number>;
};

/**
 * Per-minute budgets with rate-limiter-flexible: in Redis when one is given (with an in-memory
 * insurance limiter, so an unreachable Redis degrades to per-replica limits, never to errors), in
 * process memory otherwise.
 */
export function createRateLimits({ redis, perMinute = defaultRatePerMinute }: CreateRateLimitsParameters = {}): RateLimits {
  const limiters = new Map(
    (Object.keys(perMinute) as RateScope[]).map((scope) => {
      const options = { points: perMinute[scope], duration: 60, keyPrefix: `svc_rl_${scope.toLowerCase()}` };
      const memory = new RateLimiterMemory(options);
      const limiter =
        redis && scope !== "PUBLIC" && scope !== "MCP"
          ? new RateLimiterRedis({ ...options, storeClient: redis, insuranceLimiter: memory })
          : memory;
      return [scope, limiter] as const;
    }),
  );
  return {
    async consume(scope, id) {
      const limiter = limiters.get(scope);
      if (!limiter) throw new Error(`no rate limit for ${scope}`);
      try {
        const res = await limiter.consume(id);
        return { ok: true, remaining: res.remainingPoints };
      } catch (rejection) {
        if (rejection instanceof RateLimiterRes)
          return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)) };
        throw rejection;
      }
    },
  };
}
