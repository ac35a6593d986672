import { createHash } from "node:crypto";
import type { Context, MiddlewareHandler } from "hono";
import { ApiError } from "../errors";
import type { KeyInfo } from "../store/keyQueries";
import { type CreditService, spendableNow } from "./createCreditService";
import type { KeyService } from "./createKeyService";
import type { RateLimits, RateScope } from "./createRateLimits";
import { isStoreUnavailable } from "./isStoreUnavailable";
import { matchesSha256Digest } from "./matchesSha256Digest";
import { readCredential } from "./readCredential";
import type { CreditBalance } from "./records";

/** Who a protected request is served for. */
export type Principal =
  | { kind: "apiKey"; keyId: string; key: KeyInfo }
  | { kind: "gateway"; user: string | null; subscription: string | null; host: string | null };

/** Hono environment of routes behind the access middleware: `c.get("principal")`. */
export type AccessEnv = { Variables: { principal: Principal } };

export type ChargeResult = { ok: true; remaining: number | null } | { ok: false; error: ApiError };

export type Access = {
  /** Per-minute limit of unauthenticated routes, per client address (hashed, in memory). */
  publicLimit(): MiddlewareHandler;
  /** Waits for the app store's migrations; 503 PERSISTENCE_UNAVAILABLE when it cannot be opened. */
  requireStore(): MiddlewareHandler;
  /** The API key the request presents, authenticated (expired keys included), or a 401. */
  presentedKey(c: Context): Promise<{ key: KeyInfo; expired: boolean }>;
  /** An API key is required (keys/self, revoke); an expired key is let through, a revoked one is not. */
  requireApiKey(): MiddlewareHandler<AccessEnv>;
  /**
   * An active API key with credits left, or the marketplace gateway (x-gateway-key behind the proxy
   * secret boundary); no credential is 401. The route charges with `charge(c, cost)` once its answer
   * is valid (preflight: one decision credit after a valid evidence response is prepared).
   *
   * @example
   * app.post("/v1/transaction/preflight", deps.access.requireKeyOrGateway(), async (c) => {
   *   const answer = await preflight(request); // a failure or 503 thrown here costs nothing
   *   const charged = await deps.access.charge(c, 1);
   *   if (!charged.ok) throw charged.error; // 402 CREDITS_EXHAUSTED or 429 DAILY_LIMIT_REACHED
   *   return c.json(answer);
   * });
   */
  requireKeyOrGateway(): MiddlewareHandler<AccessEnv>;
  /**
   * Payable routes: an active API key is charged `cost` credits after a 2xx answer is prepared (a
   * refused charge replaces it with 402/429); no credential goes to the `unpaid` handler (402).
   */
  payable(options?: { cost?: number }): MiddlewareHandler<AccessEnv>;
  /** Charges the request's API key `cost` credits (the gateway is metered by the marketplace: no charge). */
  charge(c: Context<AccessEnv>, cost: number): Promise<ChargeResult>;
};

export type CreateAccessParameters = {
  keys: KeyService;
  credits: CreditService;
  rateLimits: RateLimits;
  /** The rate-limit bucket of an unauthenticated request. */
  clientBucket: (c: Context) => string;
  /** SHA-256 digest (hex) of the gateway's proxy secret; undefined: gateway access is off. */
  gatewayProxySecretSha256: string | undefined;
  /** Settles when the app store is migrated; requests wait for it (a failure is 503). */
  storeReady: Promise<void>;
  /** Answers a payable route called with no credential (the x402 challenge plugs in here). */
  unpaid?: MiddlewareHandler;
  clock: () => Date;
};

/** The access layer in front of every protected route: credentials, rate limits, credits, gateway. */
export function createAccess(deps: CreateAccessParameters): Access {
  const { keys, credits, rateLimits } = deps;
  const gatewayDigest = deps.gatewayProxySecretSha256 ? Buffer.from(deps.gatewayProxySecretSha256, "hex") : undefined;
  const unpaid = deps.unpaid ?? paymentRequired;

  async function limit(c: Context, scope: RateScope, id: string) {
    const decision = await rateLimits.consume(scope, id);
    if (!decision.ok) {
      throw new ApiError(
        429,
        "RATE_LIMITED",
        `too many requests; retry in ${decision.retryAfterSeconds} s`,
        {},
        {
          "Retry-After": String(decision.retryAfterSeconds),
          "X-RateLimit-Remaining": "0",
        },
      );
    }
    c.header("X-RateLimit-Remaining", String(decision.remaining));
  }

  /** Runs a store read or write; an unreachable store is 503, never 500. */
  async function fromStore<T>(work: () => Promise<T>): Promise<T> {
    const unavailable = () => new ApiError(503, "PERSISTENCE_UNAVAILABLE", "the key store is unavailable; retry later");
    await deps.storeReady.catch(() => {
      throw unavailable();
    });
    try {
      return await work();
    } catch (err) {
      throw isStoreUnavailable(err) ? unavailable() : err;
    }
  }

  async function presentedKey(c: Context) {
    const credential = readCredential(c);
    if (credential.kind === "conflicting") throw conflicting();
    if (credential.kind !== "apiKey") {
      throw new ApiError(
        401,
        "API_KEY_REQUIRED",
        "this route needs an API key in x-api-key or Authorization: Bearer (x402 payment cannot be used here)",
      );
    }
    const auth = await fromStore(() => keys.authenticate(credential.rawKey));
    if (!auth.ok) {
      throw auth.reason === "REVOKED"
        ? new ApiError(401, "API_KEY_REVOKED", "this API key was revoked")
        : new ApiError(401, "INVALID_API_KEY", "the API key is not valid");
    }
    return auth;
  }

  /** Authenticates the presented API key, applies its tier's rate limit, and sets the principal. */
  async function authenticateKey(c: Context<AccessEnv>, { allowExpired }: { allowExpired: boolean }) {
    const auth = await presentedKey(c);
    await limit(c, auth.key.tier, auth.key.id);
    if (auth.expired && !allowExpired) {
      throw new ApiError(
        402,
        "API_KEY_EXPIRED",
        "this API key has expired; renew it (POST /v1/subscribe/intents with renewExistingKey) or buy a new one",
      );
    }
    c.set("principal", { kind: "apiKey", keyId: auth.key.id, key: auth.key });
    return auth.key;
  }

  /** Refuses before any work when the key cannot pay for one more call. */
  async function requireCredits(c: Context, key: KeyInfo, cost: number) {
    const balance = await fromStore(() => credits.balance(key));
    c.header("X-Credits-Remaining", String(spendableNow(balance)));
    if (spendableNow(balance) < cost) throw creditRefusal(balance, cost, deps.clock());
  }

  async function charge(c: Context<AccessEnv>, cost: number): Promise<ChargeResult> {
    const principal = c.get("principal");
    if (principal.kind === "gateway") return { ok: true, remaining: null };
    const outcome = await fromStore(() => credits.charge(principal.key, cost));
    const remaining = spendableNow(outcome.balance);
    c.header("X-Credits-Remaining", String(remaining));
    return outcome.ok ? { ok: true, remaining } : { ok: false, error: creditRefusal(outcome.balance, cost, deps.clock()) };
  }

  return {
    publicLimit: () =>
      async function publicLimit(c, next) {
        await limit(c, "PUBLIC", deps.clientBucket(c));
        await next();
      },

    requireStore: () =>
      async function requireStore(_c, next) {
        await fromStore(async () => {});
        await next();
      },

    presentedKey,

    requireApiKey: () =>
      async function requireApiKey(c, next) {
        await authenticateKey(c, { allowExpired: true });
        await next();
      },

    requireKeyOrGateway: () =>
      async function requireKeyOrGateway(c, next) {
        const credential = readCredential(c);
        if (credential.kind === "conflicting") throw conflicting();
        if (credential.kind === "none") {
          throw new ApiError(
            401,
            "CREDENTIAL_REQUIRED",
            "this route needs an API key (x-api-key or Authorization: Bearer) or marketplace gateway authentication",
          );
        }
        if (credential.kind === "apiKey") {
          await requireCredits(c, await authenticateKey(c, { allowExpired: false }), 1);
        } else {
          if (!credential.proxySecret || !matchesSha256Digest(credential.proxySecret, gatewayDigest)) {
            throw new ApiError(401, "INVALID_GATEWAY_CREDENTIAL", "marketplace gateway authentication failed");
          }
          // Metered by the marketplace; limited per marketplace user (hashed: the budget key names no one).
          await limit(c, "GATEWAY", sha256(credential.user ?? credential.gatewayKey));
          c.set("principal", { kind: "gateway", user: credential.user, subscription: credential.subscription, host: credential.host });
        }
        await next();
      },

    payable: ({ cost = 1 } = {}) =>
      async function payable(c, next) {
        const credential = readCredential(c);
        if (credential.kind === "conflicting") throw conflicting();
        if (credential.kind !== "apiKey") {
          await limit(c, "PUBLIC", deps.clientBucket(c));
          return unpaid(c, next);
        }
        const key = await authenticateKey(c, { allowExpired: false });
        await requireCredits(c, key, cost);
        await next();
        if (c.res.status < 200 || c.res.status >= 300) return;
        const charged = await charge(c, cost);
        if (!charged.ok) {
          c.res = c.json(charged.error.body(), charged.error.status, charged.error.headers);
        }
        c.res.headers.set("X-Credits-Remaining", String(charged.ok ? charged.remaining : 0));
      },

    charge,
  };
}

/** 402 when the cycle's allowance is spent; 429 until the next UTC day when only a free key's daily cap is. */
function creditRefusal(balance: CreditBalance, cost: number, now: Date): ApiError {
  if (balance.remaining >= cost && balance.daily && balance.daily.remaining < cost) {
    const retryAfter = Math.max(1, Math.ceil((Date.parse(balance.daily.resetsAt) - now.getTime()) / 1000));
    return new ApiError(
      429,
      "DAILY_LIMIT_REACHED",
      `this free key's ${balance.daily.limit} decisions for today are used; they renew at ${balance.daily.resetsAt}`,
      { resetsAt: balance.daily.resetsAt },
      {
        "Retry-After": String(retryAfter),
        "X-Credits-Remaining": "0",
      },
    );
  }
  return new ApiError(
    402,
    "CREDITS_EXHAUSTED",
    `this key's ${balance.allowance} credits for the cycle ending ${balance.cycleEndsAt} are used; upgrade, or wait for the next cycle`,
    { cycleEndsAt: balance.cycleEndsAt },
    {
      "X-Credits-Remaining": "0",
    },
  );
}

const paymentRequired: MiddlewareHandler = async (c) =>
  c.json(
    {
      error: "PAYMENT_REQUIRED",
      message: "this route needs an API key (x-api-key or Authorization: Bearer) or an x402 payment",
      plans: "/v1/plans",
    },
    402,
  );

function conflicting() {
  return new ApiError(401, "CONFLICTING_CREDENTIALS", "x-api-key and Authorization: Bearer carry different keys; send one");
}

function sha256(value: string): string {
  return createHash("sha256").update(value).digest("hex");
}
