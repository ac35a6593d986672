import { createHash } from "node:crypto";
import type { Context } from "hono";
import type { AccessControlParameters } from "../access/AccessControlParameters";
import { admitCredential, clientOf, consumeRateLimit } from "../access/authenticate";
import { matchesSha256Digest } from "../access/matchesSha256Digest";
import { ApiError } from "../errors";

export type AuthorizeStatsParameters = Pick<AccessControlParameters, "rateLimits" | "clientBucket" | "authFailures"> & {
  /** OPERATOR_STATS_TOKEN; undefined: there is no operator view. */
  operatorToken: string | undefined;
};

const sha256 = (value: string) => createHash("sha256").update(value).digest();

/**
 * Which view of GET /v1/stats a request gets, with its rate limit taken. The `Authorization: Bearer`
 * token is compared in constant time on SHA-256 digests; the operator's token gets the operator view,
 * limited per token. Anything else gets the public view, limited per client address: without `bucket`
 * an `Authorization` that is not the operator's (an API key sent as Bearer, say) is simply not an
 * operator request, so it spends no failed authentication. With `bucket` (operator only) a missing or
 * wrong token is 401, and a wrong one spends one of the address's failed authentications.
 */
export function authorizeStats(opts: AuthorizeStatsParameters) {
  const tokenDigest = opts.operatorToken ? sha256(opts.operatorToken) : undefined;
  return async function authorizeStats(c: Context, bucketAsked: boolean): Promise<"PUBLIC" | "OPERATOR"> {
    const client = clientOf(c, opts);
    const authorization = c.req.header("authorization");
    const token = authorization === undefined ? undefined : (/^Bearer (.+)$/i.exec(authorization.trim())?.[1] ?? "");
    const isOperator = token !== undefined && matchesSha256Digest(token, tokenDigest);
    if (!bucketAsked && !isOperator) {
      await consumeRateLimit(c, opts, "PUBLIC", client());
      return "PUBLIC";
    }
    if (token === undefined)
      throw new ApiError("OPERATOR_UNAUTHORIZED", "bucket is for the operator view: send Authorization: Bearer <OPERATOR_STATS_TOKEN>");
    const admission = await admitCredential(c, opts, client, token);
    if (!isOperator) {
      await opts.authFailures.failed(client, admission);
      throw new ApiError("OPERATOR_UNAUTHORIZED", "the operator stats token is missing or wrong");
    }
    await opts.authFailures.passed(client, admission);
    await consumeRateLimit(c, opts, "PUBLIC", `stats-operator:${sha256(token).toString("hex").slice(0, 32)}`);
    return "OPERATOR";
  };
}
