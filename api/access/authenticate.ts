import type { Context } from "hono";
import { ApiError } from "../errors";
import { answerHeader } from "../http/answer";
import { awaitStore } from "../store/isStoreUnavailable";
import type { KeyInfo } from "../store/keyQueries";
import type { AccessControlParameters, AccessEnv } from "./AccessControlParameters";
import type { Admitted, ClientRef } from "./createAuthFailureGuard";
import type { RateScope } from "./createRateLimits";
import { fingerprintPresented } from "./fingerprintCredential";
import { type PresentedCredential, readCredential } from "./readCredential";

/** Takes one request from `id`'s per-minute budget in `scope`, or refuses with 429 and Retry-After. */
export async function consumeRateLimit(c: Context, opts: Pick<AccessControlParameters, "rateLimits">, scope: RateScope, id: string) {
  const decision = await opts.rateLimits.consume(scope, id);
  if (!decision.ok) {
    throw new ApiError(
      "RATE_LIMITED",
      `too many requests; retry in ${decision.retryAfterSeconds} s`,
      {},
      { "Retry-After": String(decision.retryAfterSeconds), "X-RateLimit-Remaining": "0" },
    );
  }
  answerHeader(c, "x-ratelimit-remaining", String(decision.remaining));
}

/** The request's client bucket (an HMAC of its address), computed once and only if asked for. */
export function clientOf(c: Context, opts: Pick<AccessControlParameters, "clientBucket">): ClientRef {
  let bucket: string | undefined;
  return () => {
    bucket ??= opts.clientBucket(c);
    return bucket;
  };
}

export const conflictingCredentials = () =>
  new ApiError("CONFLICTING_CREDENTIALS", "x-api-key and Authorization: Bearer carry different keys; send one");

/**
 * Lets `credential` (presented by the request of `c`) be checked unless the client address spent its
 * failed-authentication budget (and the credential did not pass recently): then 429
 * TOO_MANY_FAILED_AUTHENTICATIONS with Retry-After. The admission carries the credential's fingerprint.
 */
export async function admitCredential(
  c: Context,
  opts: Pick<AccessControlParameters, "authFailures">,
  client: ClientRef,
  credential: string,
): Promise<Admitted> {
  const admission = await opts.authFailures.admit(client, fingerprintPresented(c, credential));
  if (!admission.ok) {
    throw new ApiError(
      "TOO_MANY_FAILED_AUTHENTICATIONS",
      `too many wrong credentials from this address this minute; none is checked for ${admission.retryAfterSeconds} s`,
      { retryAfterSeconds: admission.retryAfterSeconds },
      { "Retry-After": String(admission.retryAfterSeconds) },
    );
  }
  return admission;
}

export type PresentedKeyParameters = Pick<AccessControlParameters, "keys" | "storeReady" | "clientBucket" | "authFailures">;

/**
 * The API key the request presents (`credential`, read here unless the caller read it already),
 * authenticated (expired keys included), or a 401; an unknown or revoked key spends one of the client
 * address's failed authentications, and a spent budget refuses before the key is looked up.
 */
export async function presentedKey(c: Context, opts: PresentedKeyParameters, credential: PresentedCredential = readCredential(c)) {
  if (credential.kind === "conflicting") throw conflictingCredentials();
  if (credential.kind !== "apiKey") {
    throw new ApiError(
      "API_KEY_REQUIRED",
      "this route needs an API key in x-api-key or Authorization: Bearer (x402 payment cannot be used here)",
    );
  }
  const client = clientOf(c, opts);
  const admission = await admitCredential(c, opts, client, credential.rawKey);
  await awaitStore(opts.storeReady);
  const auth = await opts.keys.authenticate(credential.rawKey, admission.fingerprint);
  if (!auth.ok) {
    await opts.authFailures.failed(client, admission);
    throw auth.reason === "REVOKED"
      ? new ApiError("API_KEY_REVOKED", "this API key was revoked")
      : new ApiError("INVALID_API_KEY", "the API key is not valid");
  }
  await opts.authFailures.passed(client, admission);
  return auth;
}

/** Authenticates the API key of `credential` (the request's, as `readCredential` read it), applies its tier's rate limit, and sets the principal. */
export async function authenticateKey(
  c: Context<AccessEnv>,
  opts: PresentedKeyParameters & Pick<AccessControlParameters, "rateLimits">,
  { allowExpired, credential }: { allowExpired: boolean; credential: PresentedCredential },
): Promise<KeyInfo> {
  const auth = await presentedKey(c, opts, credential);
  await consumeRateLimit(c, opts, auth.key.tier, auth.key.id);
  if (auth.expired && !allowExpired) {
    throw new ApiError(
      "API_KEY_EXPIRED",
      "this API key has expired; renew it (a purchase intent with renewExistingKey keeps the same secret and extends it from now), or recover it, or buy a new one",
    );
  }
  c.set("principal", { kind: "apiKey", keyId: auth.key.id, key: auth.key });
  return auth.key;
}
