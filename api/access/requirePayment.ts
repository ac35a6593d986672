import type { MiddlewareHandler } from "hono";
import type { ServiceOrigins } from "../config";
import { ApiError } from "../errors";
import type { X402Service } from "../x402/createX402Service";
import type { PaidRoute } from "../x402/PaidRoute";
import { payPerCall } from "../x402/payPerCall";
import type { AccessControlParameters, AccessEnv } from "./AccessControlParameters";
import { admitGateway } from "./admitGateway";
import { authenticateKey, conflictingCredentials, consumeRateLimit } from "./authenticate";
import { readCredential } from "./readCredential";

/** The paid routes' policies: an API key, or else the marketplace gateway, or else per-call x402 payment. */
export type PaidAccess = "apiKeyOrGateway" | "apiKeyOrX402";

/** A paid route as its policy reads it: how it may be paid besides a key, and its x402 price (none: not offered). */
export type PayableRoute = Omit<PaidRoute, "x402PriceUsd"> & { access: PaidAccess; x402PriceUsd?: number | undefined };

export type RequirePaymentParameters = Pick<
  AccessControlParameters,
  "keys" | "storeReady" | "rateLimits" | "gatewayProxySecretSha256" | "clientBucket" | "authFailures"
> & {
  /** Where the plans are listed, named in the 402 answer. */
  plansUrl: string;
  /** The x402 challenge names the resource at the origin the request came through. */
  origins: ServiceOrigins;
  /** Per-call x402 payment; null: not offered, and a request without a key on an x402 route is 402. */
  x402: X402Service | null;
};

/**
 * How a request to a paid route is paid, decided here for every paid route: an active API key first
 * (its credits are `chargeCredits`' job; a payment header is then not read, nothing is taken from
 * it). Without one, an `apiKeyOrGateway` route takes the marketplace gateway (no credential: 401
 * CREDENTIAL_REQUIRED); an `apiKeyOrX402` route takes a per-call x402 payment (`payPerCall`, limited
 * per client address like every call without a credential; not offered: 402 PAYMENT_REQUIRED).
 */
export function requirePayment(opts: RequirePaymentParameters): (route: PayableRoute) => MiddlewareHandler<AccessEnv> {
  const gatewayDigest = opts.gatewayProxySecretSha256 ? Buffer.from(opts.gatewayProxySecretSha256, "hex") : undefined;
  return (route) => {
    const { x402PriceUsd } = route;
    const perCall =
      route.access === "apiKeyOrX402" && opts.x402 && x402PriceUsd !== undefined
        ? payPerCall({ service: opts.x402, route: { ...route, x402PriceUsd }, origins: opts.origins, plansUrl: opts.plansUrl })
        : undefined;
    return async function requirePayment(c, next) {
      const credential = readCredential(c);
      if (credential.kind === "conflicting") throw conflictingCredentials();
      if (credential.kind === "apiKey") {
        await authenticateKey(c, opts, { allowExpired: false, credential });
        return next();
      }
      if (route.access === "apiKeyOrGateway") {
        if (credential.kind === "none") {
          throw new ApiError(
            "CREDENTIAL_REQUIRED",
            "this route needs an API key (x-api-key or Authorization: Bearer) or marketplace gateway authentication",
          );
        }
        await admitGateway(c, { ...opts, gatewayDigest }, credential);
        return next();
      }
      // A gateway credential is no payment here: the request pays per call like one without a credential.
      await consumeRateLimit(c, opts, "PUBLIC", opts.clientBucket(c));
      if (perCall) return perCall(c, next);
      throw new ApiError("PAYMENT_REQUIRED", "this route needs an API key (x-api-key or Authorization: Bearer)", {
        plans: opts.plansUrl,
      });
    };
  };
}
