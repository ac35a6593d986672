import type { MiddlewareHandler } from "hono";
import type { AccessControlParameters, AccessEnv } from "./AccessControlParameters";
import { authenticateKey } from "./authenticate";
import { readCredential } from "./readCredential";

export type RequireApiKeyParameters = Pick<
  AccessControlParameters,
  "keys" | "storeReady" | "rateLimits" | "clientBucket" | "authFailures"
> & {
  /** Let an expired (not revoked) key through: keys/self and revoke serve it. */
  allowExpired?: boolean;
};

/** An API key is required (x402 and the gateway cannot be used); no key, or a revoked or unknown one, is 401. */
export function requireApiKey({ allowExpired = true, ...opts }: RequireApiKeyParameters): MiddlewareHandler<AccessEnv> {
  return async function requireApiKey(c, next) {
    await authenticateKey(c, opts, { allowExpired, credential: readCredential(c) });
    await next();
  };
}
