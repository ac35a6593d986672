import type { MiddlewareHandler } from "hono";
import { RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible";
import { ApiError } from "../errors";
import type { AccessControlParameters } from "./AccessControlParameters";

export type LimitIntentsPerClientParameters = Pick<AccessControlParameters, "clientBucket"> & {
  /** Intents one client address may create per hour. */
  perHour: number;
};

/**
 * Intents one client address may create an hour, counted in process memory under its hashed bucket
 * (the address is never stored): 429 INTENT_RATE_LIMITED with Retry-After beyond it. A request that
 * stored no intent (any answer but 2xx) gives its unit back.
 */
export function limitIntentsPerClient({ clientBucket, perHour }: LimitIntentsPerClientParameters): MiddlewareHandler {
  const created = new RateLimiterMemory({ points: perHour, duration: 3600, keyPrefix: "svc_intents_per_client" });
  return async function limitIntentsPerClient(c, next) {
    const client = clientBucket(c);
    try {
      await created.consume(client);
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      const retryAfterSeconds = Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
      throw new ApiError(
        "INTENT_RATE_LIMITED",
        `this address created its ${perHour} intents of the hour; retry in ${retryAfterSeconds} s`,
        { retryAfterSeconds },
        { "Retry-After": String(retryAfterSeconds) },
      );
    }
    await next();
    if (c.res.status < 200 || c.res.status >= 300) await created.reward(client, 1);
  };
}
