import { z } from "zod";
import { AuditResponse, ScoreResponse } from "../capability/AuditResponse";
import { TransactionPreflightRequest } from "../capability/preflightTransaction";
import { TransactionPreflightResponse } from "../capability/TransactionPreflightResponse";
import { StatusReport } from "../health/StatusReport";
import { AddressParam, SymbolParam } from "../http/params";
import { IntentEnvelope, IssuedKey, KeySelf, Plans, PurchaseIntent, RecoveryIntent, RevokeResult } from "../keys/records";
import { DexMetricsResponse } from "../market/DexMetricsResponse";
import { GasFees } from "../market/GasFees";
import { marketSymbols } from "../market/marketSymbols";
import { feeHistoryBlocks } from "../market/observeGasFees";
import { TokenPriceResponse } from "../market/TokenPriceResponse";
import { WhaleSignalsResponse } from "../market/WhaleSignalsResponse";
import { DiscoveryListingSchema } from "../x402/discovery/DiscoveryListingSchema";
import { ClaimBody, CryptoClaimBody, FreeChallengeBody, PurchaseBody, RecoveryChallengeBody, RevokeBody } from "./accessRequests";
import { defineRoute, jsonRequestBody, type RouteDefinition } from "./defineRoute";

const provenanceHeaders = ["X-Service-RPC-Provider", "X-Service-Trust-Level"] as const;
const meteredHeaders = [...provenanceHeaders, "X-RateLimit-Remaining", "X-Credits-Remaining"] as const;
const addressPath = { params: z.object({ address: AddressParam }) };

/** Errors every keyed route can answer before its own work: the credential, its limits and the store. */
const keyErrors = [
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
const meteredErrors = [...keyErrors, "API_KEY_EXPIRED", "CREDITS_EXHAUSTED", "DAILY_LIMIT_REACHED"] as const;
const bodyErrors = ["UNSUPPORTED_CONTENT_TYPE", "MALFORMED_JSON", "INVALID_BODY", "BODY_TOO_LARGE"] as const;
/** Onboarding and recovery: no credential, limited per client address, written to the app store. */
const onboardingErrors = [...bodyErrors, "CREDENTIAL_IN_QUERY", "RATE_LIMITED", "PERSISTENCE_UNAVAILABLE"] as const;
/** A route that stores an intent: the client address's hourly budget and the wallet's cap on open intents. */
const intentErrors = ["INTENT_RATE_LIMITED", "TOO_MANY_OPEN_INTENTS"] as const;
const observationErrors = ["DATA_SOURCE_UNAVAILABLE"] as const;
/** A signed challenge's claim: the intent, its origin and its signature (a smart wallet's is read at evidence grade). */
const challengeClaimErrors = [
  ...onboardingErrors,
  "INTENT_NOT_FOUND",
  "INTENT_EXPIRED",
  "CHALLENGE_ORIGIN_MISMATCH",
  "SIGNATURE_INVALID",
  "DATA_SOURCE_UNAVAILABLE",
] as const;

/**
 * Every route of the API, defined once: method, path, access, credits, x402 price, request and
 * response schemas, error codes. The app, the OpenAPI document and the plan catalogue are built from
 * this table; a route that is not here does not exist.
 */
export const routes = {
  status: defineRoute({
    method: "get",
    path: "/v1/status",
    summary: "Live status of persistence, Base RPC trust, the index, verdict quality and payment settlement",
    access: "public",
    rateLimited: false,
    responses: {
      200: { description: "Status", schema: StatusReport },
      503: { description: "Persistence and RPC both unreachable (the same Status body)", schema: StatusReport },
    },
    errors: ["CREDENTIAL_IN_QUERY"],
  }),
  health: defineRoute({
    method: "get",
    path: "/health",
    summary: "Liveness probe: 200 while the process is up",
    access: "public",
    rateLimited: false,
    hidden: true,
    responses: { 200: { description: "{status: UP}", schema: z.object({ status: z.literal("UP") }) } },
    errors: ["CREDENTIAL_IN_QUERY"],
  }),
  ready: defineRoute({
    method: "get",
    path: "/ready",
    summary: "Readiness probe: 200 once the indexer's historical backfill is done",
    access: "public",
    rateLimited: false,
    hidden: true,
    responses: { 200: { description: "{status: READY}", schema: z.object({ status: z.literal("READY") }) } },
    errors: ["CREDENTIAL_IN_QUERY", "NOT_READY", "INDEX_UNAVAILABLE"],
  }),
  openApi: defineRoute({
    method: "get",
    path: "/v1/openapi.json",
    summary: "This document: OpenAPI 3.1.0 of API version 2.2.0",
    access: "public",
    rateLimited: false,
    responses: { 200: { description: "The OpenAPI document" } },
    errors: ["CREDENTIAL_IN_QUERY"],
  }),
  openApiRoot: defineRoute({
    method: "get",
    path: "/openapi.json",
    summary: "The OpenAPI document at the conventional root path",
    access: "public",
    rateLimited: false,
    hidden: true,
    responses: { 200: { description: "The OpenAPI document" } },
    errors: ["CREDENTIAL_IN_QUERY"],
  }),
  x402Discovery: defineRoute({
    method: "get",
    path: "/v1/x402/discovery",
    summary: "The payable routes as x402 discovery resources (bazaar): price, requirements, input schema, output example and schema",
    description:
      "The same requirements and extension declarations every 402 challenge carries, listed as a facilitator's discovery index lists resources, with the address and key id that sign offers and receipts.",
    access: "public",
    responses: { 200: { description: "DiscoveryListing", schema: DiscoveryListingSchema } },
    errors: ["CREDENTIAL_IN_QUERY", "RATE_LIMITED"],
  }),
  plans: defineRoute({
    method: "get",
    path: "/v1/plans",
    summary: "The authoritative plan and price catalogue",
    access: "public",
    responses: { 200: { description: "Plans", schema: Plans, headers: ["X-RateLimit-Remaining"] } },
    errors: ["CREDENTIAL_IN_QUERY", "RATE_LIMITED"],
  }),
  demoAudit: defineRoute({
    method: "get",
    path: "/v1/demo/audit/{address}",
    summary: "Free demo: full evidence for the published samples, a tiered preview for any other address",
    access: "public",
    request: addressPath,
    responses: { 200: { description: "AuditResponse with `demo`, or a PREVIEW record", headers: provenanceHeaders } },
    errors: ["CREDENTIAL_IN_QUERY", "INVALID_ADDRESS", "RATE_LIMITED", ...observationErrors],
  }),
  audit: defineRoute({
    method: "get",
    path: "/v1/audit/{address}",
    summary: "Capability observations, proxy resolution and coverage index of one address at a pinned block",
    access: "apiKeyOrX402",
    credits: 1,
    x402PriceUsd: 0.02,
    request: addressPath,
    responses: { 200: { description: "AuditResponse", schema: AuditResponse, headers: meteredHeaders } },
    errors: [...meteredErrors, "PAYMENT_REQUIRED", "INVALID_ADDRESS", "METHOD_NOT_ALLOWED", ...observationErrors],
  }),
  score: defineRoute({
    method: "get",
    path: "/v1/security/score/{address}",
    summary: "Coverage index with its deduction breakdown (legacy URL)",
    access: "apiKeyOrX402",
    credits: 1,
    x402PriceUsd: 0.02,
    request: addressPath,
    responses: { 200: { description: "ScoreResponse", schema: ScoreResponse, headers: meteredHeaders } },
    errors: [...meteredErrors, "PAYMENT_REQUIRED", "INVALID_ADDRESS", ...observationErrors],
  }),
  dexMetrics: defineRoute({
    method: "get",
    path: "/v1/dex/metrics",
    summary: "Reserves, ±2% depth and 24 h volume summed over the tracked pools, with the exact coverage",
    access: "apiKeyOrX402",
    credits: 1,
    x402PriceUsd: 0.01,
    responses: { 200: { description: "DexMetricsResponse", schema: DexMetricsResponse, headers: meteredHeaders } },
    errors: [...meteredErrors, "PAYMENT_REQUIRED", ...observationErrors],
  }),
  tokenPrice: defineRoute({
    method: "get",
    path: "/v1/token/price/{symbol}",
    summary: "USD price of a tracked token: the median of its up-to-five deepest indexed pools",
    description: `Symbols: ${marketSymbols.join(", ")}, matched case-insensitively (the answer spells it canonically). An untracked symbol is 404 UNKNOWN_SYMBOL with the supported list.`,
    access: "apiKeyOrX402",
    credits: 1,
    x402PriceUsd: 0.005,
    request: { params: z.object({ symbol: SymbolParam }) },
    responses: { 200: { description: "TokenPriceResponse", schema: TokenPriceResponse, headers: meteredHeaders } },
    errors: [...meteredErrors, "PAYMENT_REQUIRED", "INVALID_PARAMETER", "UNKNOWN_SYMBOL", ...observationErrors],
  }),
  whaleSignals: defineRoute({
    method: "get",
    path: "/v1/whales/signals",
    summary: "The newest (at most 50) tracked-token transfers at or above their threshold, in a bounded recent block window",
    access: "apiKeyOrX402",
    credits: 1,
    x402PriceUsd: 0.02,
    responses: { 200: { description: "WhaleSignalsResponse", schema: WhaleSignalsResponse, headers: meteredHeaders } },
    errors: [...meteredErrors, "PAYMENT_REQUIRED", ...observationErrors],
  }),
  preflight: defineRoute({
    method: "post",
    path: "/v1/transaction/preflight",
    summary: "Transaction preflight evidence at a pinned block (API key or marketplace gateway; not x402)",
    description:
      "One decision credit, charged only after a valid evidence-grade answer is prepared; 503 when evidence grade cannot be reached. Bodies up to 320 KiB (128 KiB of calldata as hex).",
    access: "apiKeyOrGateway",
    credits: 1,
    request: { body: jsonRequestBody(TransactionPreflightRequest) },
    maxBodyBytes: 320 * 1024,
    responses: { 200: { description: "TransactionPreflightResponse", schema: TransactionPreflightResponse, headers: meteredHeaders } },
    errors: [
      ...meteredErrors,
      "CREDENTIAL_REQUIRED",
      "INVALID_GATEWAY_CREDENTIAL",
      ...bodyErrors,
      "INVALID_BLOCK_NUMBER",
      "METHOD_NOT_ALLOWED",
      ...observationErrors,
    ],
  }),
  gasFees: defineRoute({
    method: "get",
    path: "/v1/gas/fees",
    summary:
      "Base gas fees at a pinned block: eth_gasPrice, the next block's base fee, priority-fee percentiles and the L1 data-fee parameters",
    description: `Every figure is read at one block pinned at evidence grade (its provider and trust level in the headers and in provenance): priority-fee percentiles come from eth_feeHistory over the ${feeHistoryBlocks} blocks ending there, the L1 parameters from the GasPriceOracle predeploy. Cached for at most one block. The route takes no query parameters and ignores unknown ones (credential-shaped ones are 401).`,
    access: "apiKeyOrX402",
    credits: 1,
    x402PriceUsd: 0.005,
    responses: { 200: { description: "GasFees", schema: GasFees, headers: meteredHeaders } },
    errors: [...meteredErrors, "PAYMENT_REQUIRED", ...observationErrors],
  }),
  freeChallenge: defineRoute({
    method: "post",
    path: "/v1/subscribe/free/challenge",
    summary: "A challenge for the wallet's one free key (sign messageToSign with personal_sign)",
    access: "public",
    appStore: true,
    createsIntent: true,
    request: { body: jsonRequestBody(FreeChallengeBody) },
    responses: { 200: { description: "IntentEnvelope", schema: IntentEnvelope } },
    errors: [...onboardingErrors, ...intentErrors],
  }),
  freeClaim: defineRoute({
    method: "post",
    path: "/v1/subscribe/free/claim",
    summary: "The free key for a valid signature over the challenge (the raw key is shown once)",
    access: "public",
    appStore: true,
    request: { body: jsonRequestBody(ClaimBody) },
    responses: { 200: { description: "IssuedKey", schema: IssuedKey } },
    errors: [...challengeClaimErrors, "FREE_KEY_EXISTS"],
  }),
  purchaseIntent: defineRoute({
    method: "post",
    path: "/v1/subscribe/intents",
    summary: "A purchase intent freezing the exact USDC (and wei, with a live quote) amount, duration and renewal target for 15 minutes",
    description: "With renewExistingKey the active same-tier paid key is presented in x-api-key.",
    access: "public",
    appStore: true,
    createsIntent: true,
    request: { body: jsonRequestBody(PurchaseBody) },
    responses: { 200: { description: "PurchaseIntent", schema: PurchaseIntent } },
    errors: [...onboardingErrors, ...intentErrors, ...keyErrors, "RENEWAL_TARGET_INVALID", "PAYMENTS_UNAVAILABLE"],
  }),
  cryptoClaim: defineRoute({
    method: "post",
    path: "/v1/subscribe/crypto",
    summary: "Redeems a payment with 3 confirmations for a purchase intent: a new key, or the renewal target's expiry extended",
    access: "public",
    appStore: true,
    request: { body: jsonRequestBody(CryptoClaimBody) },
    responses: { 200: { description: "IssuedKey", schema: IssuedKey } },
    errors: [
      ...onboardingErrors,
      "INTENT_NOT_FOUND",
      "INTENT_ALREADY_USED",
      "INTENT_EXPIRED",
      "CHALLENGE_ORIGIN_MISMATCH",
      "INTENT_SIGNATURE_INVALID",
      "TX_ALREADY_REDEEMED",
      "PAYMENT_NOT_FOUND",
      "PAYMENT_NOT_INDEXED",
      "PAYMENT_NOT_FINAL",
      "PAYMENT_SENDER_MISMATCH",
      "PAYMENT_AMOUNT_MISMATCH",
      "PAYMENT_FAILED",
      "ETH_NOT_OFFERED",
      "PAYMENTS_UNAVAILABLE",
      "DATA_SOURCE_UNAVAILABLE",
    ],
  }),
  keySelf: defineRoute({
    method: "get",
    path: "/v1/keys/self",
    summary: "Metadata and credits of the presented API key (never its secret; x402 cannot use this route)",
    access: "apiKey",
    responses: { 200: { description: "KeySelf", schema: KeySelf, headers: ["X-RateLimit-Remaining", "X-Credits-Remaining"] } },
    errors: keyErrors,
  }),
  keyRevoke: defineRoute({
    method: "post",
    path: "/v1/keys/revoke",
    summary: "Revokes the presented API key permanently (body {confirm: true})",
    access: "apiKey",
    request: { body: jsonRequestBody(RevokeBody) },
    responses: { 200: { description: "Revoke result", schema: RevokeResult } },
    errors: [...keyErrors, ...bodyErrors, "CONFIRMATION_REQUIRED"],
  }),
  recoveryChallenge: defineRoute({
    method: "post",
    path: "/v1/keys/recovery/challenge",
    summary: "A recovery challenge: 202 with an identical structure whether or not the wallet holds a recoverable key",
    access: "public",
    appStore: true,
    createsIntent: true,
    request: { body: jsonRequestBody(RecoveryChallengeBody) },
    responses: { 202: { description: "RecoveryIntent", schema: RecoveryIntent } },
    errors: [...onboardingErrors, ...intentErrors],
  }),
  recoveryClaim: defineRoute({
    method: "post",
    path: "/v1/keys/recovery/claim",
    summary: "Replaces a paid key's secret atomically (tier and expiry kept; the replacement is shown once)",
    access: "public",
    appStore: true,
    request: { body: jsonRequestBody(ClaimBody) },
    responses: { 200: { description: "IssuedKey (REPLACED)", schema: IssuedKey } },
    errors: [...challengeClaimErrors, "RECOVERY_CHALLENGE_CONSUMED", "RECOVERY_TARGET_CHANGED", "NO_RECOVERABLE_KEY"],
  }),
  gatewayProxyDigest: defineRoute({
    method: "get",
    path: "/v1/operator/gateway-proxy-digest",
    summary: "SHA-256 digest of the marketplace proxy secret, for GATEWAY_PROXY_SECRET_SHA256 (operator bootstrap)",
    description:
      "404 unless OPERATOR_BOOTSTRAP_TOKEN (at least 32 characters) is configured. Headers: x-operator-bootstrap, x-gateway-proxy-secret, and at least one of x-gateway-user, x-gateway-subscription, x-gateway-host, x-gateway-key.",
    access: "operator",
    responses: { 200: { description: "{sha256}", schema: z.object({ sha256: z.string().regex(/^[0-9a-f]{64}$/) }) } },
    errors: [
      "CREDENTIAL_IN_QUERY",
      "NOT_FOUND",
      "OPERATOR_UNAUTHORIZED",
      "TOO_MANY_FAILED_AUTHENTICATIONS",
      "PROXY_SECRET_REQUIRED",
      "GATEWAY_HEADERS_REQUIRED",
      "RATE_LIMITED",
    ],
  }),
} as const satisfies Record<string, RouteDefinition>;

/** The table as a list, in its order. */
export const routeList: readonly RouteDefinition[] = Object.values(routes);
