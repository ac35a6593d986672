import { createHash } from "node:crypto";
import type { MiddlewareHandler } from "hono";
import { ApiError } from "../errors";
import type { AccessEnv, AccessOptions } from "./AccessOptions";
import { admitCredential, authenticateKey, clientOf, conflictingCredentials, consumeRateLimit } from "./authenticate";
import { matchesSha256Digest } from "./matchesSha256Digest";
import { readCredential } from "./readCredential";

export type RequireKeyOrGatewayOptions = Pick<
  AccessOptions,
  "keys" | "storeReady" | "rateLimits" | "gatewayProxySecretSha256" | "clientBucket" | "authFailures"
>;

/**
 * An active API key, or the marketplace gateway (`x-gateway-key` behind the private proxy-secret
 * boundary, limited per marketplace user); no credential is 401. A wrong key or proxy secret spends
 * one of the client address's failed authentications. Credits are `chargeCredits`' job.
 */
export function requireKeyOrGateway(opts: RequireKeyOrGatewayOptions): MiddlewareHandler<AccessEnv> {
  const gatewayDigest = opts.gatewayProxySecretSha256 ? Buffer.from(opts.gatewayProxySecretSha256, "hex") : undefined;
  return async function requireKeyOrGateway(c, next) {
    const credential = readCredential(c);
    if (credential.kind === "conflicting") throw conflictingCredentials();
    if (credential.kind === "none") {
      throw new ApiError(
        "CREDENTIAL_REQUIRED",
        "this route needs an API key (x-api-key or Authorization: Bearer) or marketplace gateway authentication",
      );
    }
    if (credential.kind === "apiKey") {
      await authenticateKey(c, opts, { allowExpired: false, credential });
    } else {
      const client = clientOf(c, opts);
      const proxySecret = credential.proxySecret ?? "";
      const admission = await admitCredential(c, opts, client, proxySecret);
      if (!matchesSha256Digest(proxySecret, gatewayDigest)) {
        await opts.authFailures.failed(client, admission);
        throw new ApiError("INVALID_GATEWAY_CREDENTIAL", "marketplace gateway authentication failed");
      }
      await opts.authFailures.passed(client, admission);
      // Hashed: the budget's key names no marketplace user.
      await consumeRateLimit(
        c,
        opts,
        "GATEWAY",
        createHash("sha256")
          .update(credential.user ?? credential.gatewayKey)
          .digest("hex"),
      );
      c.set("principal", { kind: "gateway", user: credential.user, subscription: credential.subscription, host: credential.host });
    }
    await next();
  };
}
