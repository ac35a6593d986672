import { createHash } from "node:crypto";
import type { Context } from "hono";
import type { AccessOptions } from "../access/AccessOptions";
import { admitCredential, clientOf, consumeRateLimit } from "../access/authenticate";
import { matchesSha256Digest } from "../access/matchesSha256Digest";
import { ApiError } from "../errors";

export type AuthorizeStatsOptions = Pick<AccessOptions, "rateLimits" | "clientBucket" | "authFailures"> & {
  /** OPERATOR_STATS_TOKEN; undefined: there is no operator view. */
  operatorToken: string | undefined;
};

const sha256 = (value: string) => createHash("sha256").update(value).digest();

/**
 * Which view of GET /v1/stats a request gets, with its rate limit taken. Without `Authorization` the
 * public view, limited per client address (`bucket` then is 401). With `Authorization: Bearer <token>`
 * the token is compared in constant time on SHA-256 digests (a wrong one is 401 and spends one of the
 * address's failed authentications); the operator view is limited per token.
 */
export function authorizeStats(opts: AuthorizeStatsOptions) {
  const tokenDigest = opts.operatorToken ? sha256(opts.operatorToken) : undefined;
  return async function authorizeStats(c: Context, bucketAsked: boolean): Promise<"PUBLIC" | "OPERATOR"> {
    const client = clientOf(c, opts);
    const authorization = c.req.header("authorization");
    if (authorization === undefined) {
      if (bucketAsked)
        throw new ApiError("OPERATOR_UNAUTHORIZED", "bucket is for the operator view: send Authorization: Bearer <OPERATOR_STATS_TOKEN>");
      await consumeRateLimit(c, opts, "PUBLIC", client());
      return "PUBLIC";
    }
    const token = /^Bearer (.+)$/i.exec(authorization.trim())?.[1] ?? "";
    const admission = await admitCredential(c, opts, client, token);
    if (!matchesSha256Digest(token, tokenDigest)) {
      await opts.authFailures.failed(client, admission);
      throw new ApiError("OPERATOR_UNAUTHORIZED", "the operator stats token is missing or wrong");
    }
    await opts.authFailures.passed(client, admission);
    await consumeRateLimit(c, opts, "PUBLIC", `stats-operator:${sha256(token).toString("hex").slice(0, 32)}`);
    return "OPERATOR";
  };
}
