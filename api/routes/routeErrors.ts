import { z } from "zod";
import { AddressParam } from "../http/params";

/** What the routes share of their definitions: error lists, answer headers, the address path. */
export const provenanceHeaders = ["X-Service-RPC-Provider", "X-Service-Trust-Level"] as const;
export const meteredHeaders = [...provenanceHeaders, "X-RateLimit-Remaining", "X-Credits-Remaining"] as const;
export const addressPath = { params: z.object({ address: AddressParam }) };

/** Errors every keyed route can answer before its own work: the credential, its limits and the store. */
export const keyErrors = [
  "CREDENTIAL_IN_QUERY",
  "API_KEY_REQUIRED",
  "INVALID_API_KEY",
  "API_KEY_REVOKED",
  "CONFLICTING_CREDENTIALS",
  "TOO_MANY_FAILED_AUTHENTICATIONS",
  "RATE_LIMITED",
  "PERSISTENCE_UNAVAILABLE",
] as const;
/** And what a metered call adds: an expired key, spent credits, a free key's daily cap. */
export const meteredErrors = [...keyErrors, "API_KEY_EXPIRED", "CREDITS_EXHAUSTED", "DAILY_LIMIT_REACHED"] as const;
export const bodyErrors = ["UNSUPPORTED_CONTENT_TYPE", "MALFORMED_JSON", "INVALID_BODY", "BODY_TOO_LARGE"] as const;
/** Onboarding and recovery: no credential, limited per client address, written to the app store. */
export const onboardingErrors = [...bodyErrors, "CREDENTIAL_IN_QUERY", "RATE_LIMITED", "PERSISTENCE_UNAVAILABLE"] as const;
/** A route that stores an intent: the client address's hourly budget and the wallet's cap on open intents. */
export const intentErrors = ["INTENT_RATE_LIMITED", "TOO_MANY_OPEN_INTENTS"] as const;
export const observationErrors = ["DATA_SOURCE_UNAVAILABLE"] as const;
/** A signed challenge's claim: the intent, its origin and its signature (a smart wallet's is read at evidence grade). */
export const challengeClaimErrors = [
  ...onboardingErrors,
  "INTENT_NOT_FOUND",
  "INTENT_EXPIRED",
  "CHALLENGE_ORIGIN_MISMATCH",
  "SIGNATURE_INVALID",
  "DATA_SOURCE_UNAVAILABLE",
] as const;
