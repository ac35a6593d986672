import type { MiddlewareHandler } from "hono";
import type { AccessControlParameters } from "./AccessControlParameters";
import { consumeRateLimit } from "./authenticate";

export type PublicLimitParameters = Pick<AccessControlParameters, "rateLimits" | "clientBucket"> & {
  /** Whose budget: the keyless routes' shared one (default), or the MCP endpoints'. */
  scope?: "PUBLIC" | "MCP";
};

/** Per-minute limit of unauthenticated routes, per client address (hashed, in memory): 429 with Retry-After beyond it. */
export function publicLimit({ scope = "PUBLIC", ...opts }: PublicLimitParameters): MiddlewareHandler {
  return async function publicLimit(c, next) {
    await consumeRateLimit(c, opts, scope, opts.clientBucket(c));
    await next();
  };
}
