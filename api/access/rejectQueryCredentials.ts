import type { MiddlewareHandler } from "hono";
import { ApiError } from "../errors";

/** Query parameter names (lowercased, `-`/`_` removed) that carry a credential. */
const credentialName =
  /(key|keys|token|tokens|secret|secrets|auth|authorization|bearer|credential|credentials|password|passwd|signature|jwt|session)$/;
/** A value shaped like one of our keys, wherever it sits in the query. */
const keyLike = /svc_(live|test)_/i;

/**
 * Refuses, before any handler runs, a request whose query string carries a credential: any parameter
 * named like one (api_key, apiKey, key, access_token, token, x-api-key, auth...) or any value or name
 * shaped like an API key. 401 CREDENTIAL_IN_QUERY: a key in a URL leaks to logs and must be rotated.
 */
export function rejectQueryCredentials(): MiddlewareHandler {
  return function rejectQueryCredentials(c, next) {
    const query = c.req.url.indexOf("?");
    if (query !== -1) {
      const params = new URLSearchParams(c.req.url.slice(query + 1).split("#")[0]);
      for (const [name, value] of params) {
        if (namesCredential(name) || keyLike.test(name) || keyLike.test(value)) {
          throw new ApiError(
            "CREDENTIAL_IN_QUERY",
            "credentials are accepted only in headers (x-api-key or Authorization: Bearer); a key sent in a URL may be logged anywhere on its way: revoke or recover it now",
          );
        }
      }
    }
    return next();
  };
}

/**
 * Whether a parameter name names a credential, case and separators ignored; array and object syntax
 * hides nothing: each part around the brackets is a name (`api_key[]`, `key[0]`, `x[api_key]`).
 */
function namesCredential(name: string): boolean {
  return name
    .toLowerCase()
    .split(/[[\]]+/)
    .some((part) => credentialName.test(part.replace(/[-_.\s]/g, "")));
}
