import type { MiddlewareHandler } from "hono";
import type { AccessOptions } from "./AccessOptions";
import { consumeRateLimit } from "./authenticate";

export type PublicLimitOptions = Pick<AccessOptions, "rateLimits" | "clientBucket"> & {
  /** Whose budget: the keyless routes' shared one (default), or the MCP endpoints'. */
  scope?: "PUBLIC" | "MCP";
};

/** Per-minute limit of unauthenticated routes, per client address (hashed, in memory): 429 with Retry-After beyond it. */
export function publicLimit({ scope = "PUBLIC", ...opts }: PublicLimitOptions): MiddlewareHandler {
  return async function publicLimit(c, next) {
    await consumeRateLimit(c, opts, scope, opts.clientBucket(c));
    await next();
  };
}
