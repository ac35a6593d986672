import type { MiddlewareHandler } from "hono";
import { ApiError } from "../errors";
import type { AccessEnv, AccessOptions } from "./AccessOptions";
import { authenticateKey, conflictingCredentials, consumeRateLimit } from "./authenticate";
import { readCredential } from "./readCredential";

export type PayableOptions = Pick<AccessOptions, "keys" | "storeReady" | "rateLimits" | "clientBucket" | "authFailures"> & {
  /** Where the plans are listed, named in the 402 answer. */
  plansUrl: string;
  /** Per-call payment (x402) of a request without an API key; absent: it is not offered, and such a request is 402. */
  perCall?: MiddlewareHandler<AccessEnv>;
};

/**
 * Payable routes: an active API key (its credits are `chargeCredits`' job), or else a per-call payment
 * (`perCall`), limited per client address like every call without a credential. With an API key a
 * payment header is not read: nothing is taken from it.
 */
export function payable(opts: PayableOptions): MiddlewareHandler<AccessEnv> {
  return async function payable(c, next) {
    const credential = readCredential(c);
    if (credential.kind === "conflicting") throw conflictingCredentials();
    if (credential.kind !== "apiKey") {
      await consumeRateLimit(c, opts, "PUBLIC", opts.clientBucket(c));
      if (opts.perCall) return opts.perCall(c, next);
      throw new ApiError("PAYMENT_REQUIRED", "this route needs an API key (x-api-key or Authorization: Bearer)", {
        plans: opts.plansUrl,
      });
    }
    await authenticateKey(c, opts, { allowExpired: false, credential });
    await next();
  };
}
