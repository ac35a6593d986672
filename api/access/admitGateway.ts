import { createHash } from "node:crypto";
import type { Context } from "hono";
import { ApiError } from "../errors";
import type { AccessControlParameters, AccessEnv } from "./AccessControlParameters";
import { admitCredential, clientOf, consumeRateLimit } from "./authenticate";
import { matchesSha256Digest } from "./matchesSha256Digest";
import type { PresentedCredential } from "./readCredential";

export type AdmitGatewayParameters = Pick<AccessControlParameters, "rateLimits" | "clientBucket" | "authFailures"> & {
  /** SHA-256 digest of the gateway's proxy secret (GATEWAY_PROXY_SECRET_SHA256); undefined: gateway access is off. */
  gatewayDigest: Buffer | undefined;
};

/**
 * Admits a request of the marketplace gateway (`x-gateway-key` behind the private proxy-secret boundary,
 * limited per marketplace user) and sets its principal; a wrong proxy secret spends one of the client
 * address's failed authentications and is 401 INVALID_GATEWAY_CREDENTIAL.
 */
export async function admitGateway(
  c: Context<AccessEnv>,
  opts: AdmitGatewayParameters,
  credential: Extract<PresentedCredential, { kind: "gateway" }>,
): Promise<void> {
  const client = clientOf(c, opts);
  const proxySecret = credential.proxySecret ?? "";
  const admission = await admitCredential(c, opts, client, proxySecret);
  if (!matchesSha256Digest(proxySecret, opts.gatewayDigest)) {
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
