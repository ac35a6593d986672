import { createHash } from "node:crypto";
import type { MiddlewareHandler } from "hono";
import { ApiError } from "../errors";
import type { AccessControlParameters } from "./AccessControlParameters";
import { admitCredential, clientOf, consumeRateLimit } from "./authenticate";
import { matchesSha256Digest } from "./matchesSha256Digest";

export type RequireOperatorBootstrapParameters = Pick<AccessControlParameters, "rateLimits" | "clientBucket" | "authFailures"> & {
  /** OPERATOR_BOOTSTRAP_TOKEN; unset (or shorter than 32 characters): the route does not exist. */
  token: string | undefined;
};

const sha256 = (value: string) => createHash("sha256").update(value).digest();

/**
 * The operator bootstrap: 404 exactly as a missing route unless a token of at least 32 characters is
 * configured; then limited per client address, and `x-operator-bootstrap` compared in constant time
 * on SHA-256 digests (401 when missing or wrong, spending one of the address's failed authentications).
 */
export function requireOperatorBootstrap(opts: RequireOperatorBootstrapParameters): MiddlewareHandler {
  const tokenDigest = opts.token && opts.token.length >= 32 ? sha256(opts.token) : undefined;
  return async function requireOperatorBootstrap(c, next) {
    if (!tokenDigest) throw new ApiError("NOT_FOUND", `no route ${c.req.method} ${c.req.path}`);
    const client = clientOf(c, opts);
    await consumeRateLimit(c, opts, "PUBLIC", client());
    const token = c.req.header("x-operator-bootstrap") ?? "";
    const admission = await admitCredential(c, opts, client, token);
    if (!matchesSha256Digest(token, tokenDigest)) {
      await opts.authFailures.failed(client, admission);
      throw new ApiError("OPERATOR_UNAUTHORIZED", "x-operator-bootstrap is missing or wrong");
    }
    await opts.authFailures.passed(client, admission);
    await next();
  };
}
