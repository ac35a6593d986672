import type { MiddlewareHandler } from "hono";
import { ApiError } from "../errors";
import type { AccessEnv, AccessOptions } from "./AccessOptions";
import { authenticateKey, conflictingCredentials, consumeRateLimit } from "./authenticate";
import { readCredential } from "./readCredential";

export type PayableOptions = Pick<AccessOptions, "keys" | "storeReady" | "rateLimits" | "clientBucket" | "authFailures"> & {
  /** Where the plans are listed, named in the 402 answer. */
  plansUrl: string;
};

/**
 * Payable routes: an active API key (its credits are `chargeCredits`' job). A call with no credential
 * is limited per client address and answered 402 PAYMENT_REQUIRED.
 */
export function payable(opts: PayableOptions): MiddlewareHandler<AccessEnv> {
  return async function payable(c, next) {
    const credential = readCredential(c);
    if (credential.kind === "conflicting") throw conflictingCredentials();
    if (credential.kind !== "apiKey") {
      await consumeRateLimit(c, opts, "PUBLIC", opts.clientBucket(c));
      throw new ApiError("PAYMENT_REQUIRED", "this route needs an API key (x-api-key or Authorization: Bearer)", {
        plans: opts.plansUrl,
      });
    }
    await authenticateKey(c, opts, { allowExpired: false });
    await next();
  };
}
