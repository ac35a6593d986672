import type { Context } from "hono";
import type { KeyService } from "../keys/createKeyService";
import type { KeyInfo } from "../store/keyQueries";
import type { AuthFailureGuard } from "./createAuthFailureGuard";
import type { CreditService } from "./createCreditService";
import type { RateLimits } from "./createRateLimits";

/** Who a protected request is served for (an x402 payer stays anonymous: it paid for this one call). */
export type Principal =
  | { kind: "apiKey"; keyId: string; key: KeyInfo }
  | { kind: "gateway"; user: string | null; subscription: string | null; host: string | null }
  | { kind: "x402" };

/** Hono environment of routes behind the access middleware: `c.get("principal")`. */
export type AccessEnv = { Variables: { principal: Principal } };

/** What every access middleware reads: the key and credit services, the rate limits, the failed-authentication budget and the store's readiness. */
export type AccessControlParameters = {
  keys: KeyService;
  credits: CreditService;
  rateLimits: RateLimits;
  /** The per-address bucket of a request (hashed client address). */
  clientBucket: (c: Context) => string;
  /** Failed authentications per client address: a spent budget refuses credentials before they are checked. */
  authFailures: AuthFailureGuard;
  /** SHA-256 digest (hex) of the gateway's proxy secret; undefined: gateway access is off. */
  gatewayProxySecretSha256: string | undefined;
  /** Settles when the app store is migrated; requests wait for it (a failure is 503). */
  storeReady: Promise<void>;
  clock: () => Date;
};
