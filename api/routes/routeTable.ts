import { z } from "zod";
import { AuditResponse, ScoreResponse } from "../capability/AuditResponse";
import { TransactionPreflightRequest } from "../capability/preflightTransaction";
import { TransactionPreflightResponse } from "../capability/TransactionPreflightResponse";
import { ProductCta, ProductEvent, ProductPage } from "../events/ProductEvent";
import { StatusReport } from "../health/StatusReport";
import { AddressParam, documentedEnum, SymbolParam } from "../http/params";
import { IntentEnvelope, IssuedKey, KeySelf, Plans, PurchaseIntent, RecoveryIntent, RevokeResult } from "../keys/records";
import { DexMetricsResponse } from "../market/DexMetricsResponse";
import { GasFees } from "../market/GasFees";
import { marketSymbols } from "../market/marketSymbols";
import { feeHistoryBlocks } from "../market/observeGasFees";
import { TokenPriceResponse } from "../market/TokenPriceResponse";
import { WhaleSignalsResponse } from "../market/WhaleSignalsResponse";
import { SampleEnvelope, SampleIndex } from "../samples/SampleEnvelope";
import { sampleNames } from "../samples/sampleNames";
import { AggregateStats, PublicStats, StatsQuery } from "../stats/StatsResponse";
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

const fileParam = { params: z.object({ file: z.string().max(64) }) };

/**
 * A page or file of the site: public, left out of the OpenAPI document, and not rate limited (a few
 * bytes from memory, cacheable); an unknown file is 404.
 */
const staticRoute = {
  method: "get",
  access: "public",
  rateLimited: false,
  hidden: true,
  responses: { 200: { description: "HTML, a script or a style sheet" } },
  errors: ["CREDENTIAL_IN_QUERY", "NOT_FOUND"],
} as const;

/**
 * Every route of the API, defined once: method, path, access, credits, x402 price, request and
 * response schemas, error codes. The app, the OpenAPI document and the plan catalogue are built from
 * this table; a route that is not here does not exist.
 */
export const routes = {
  status: defineRoute({
    group: "Discovery",
    method: "get",
    path: "/v1/status",
    summary: "Live status of persistence, Base RPC trust, the index, verdict quality and payment settlement",
    access: "public",
    responses: {
      200: { description: "Status, with `history`: availability per series and window where enough samples exist", schema: StatusReport },
      503: { description: "Persistence and RPC both unreachable (the same Status body)", schema: StatusReport },
    },
    errors: ["CREDENTIAL_IN_QUERY", "RATE_LIMITED"],
  }),
  health: defineRoute({
    group: "Probes",
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
    group: "Probes",
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
    group: "Discovery",
    method: "get",
    path: "/v1/openapi.json",
    summary: "This document: OpenAPI 3.1.0 of API version 2.2.0",
    access: "public",
    rateLimited: false,
    responses: { 200: { description: "The OpenAPI document" } },
    errors: ["CREDENTIAL_IN_QUERY"],
  }),
  openApiRoot: defineRoute({
    group: "Discovery",
    method: "get",
    path: "/openapi.json",
    summary: "The OpenAPI document at the conventional root path",
    access: "public",
    rateLimited: false,
    hidden: true,
    responses: { 200: { description: "The OpenAPI document" } },
    errors: ["CREDENTIAL_IN_QUERY"],
  }),
  stats: defineRoute({
    group: "Discovery",
    method: "get",
    path: "/v1/stats",
    summary: "Aggregate usage: redacted public metadata, or exact identifier-free daily counters with the operator token",
    description:
      "Without Authorization: PublicStats (which counters moved, never a figure), limited per client address. With Authorization: Bearer <OPERATOR_STATS_TOKEN>: AggregateStats of `bucket` (default production), limited per token. `bucket` without operator authorization is 401. Without `bucket`, an Authorization that is not the operator token gets the public view.",
    access: "public",
    rateLimited: false,
    appStore: true,
    request: { query: StatsQuery },
    responses: {
      200: {
        description: "PublicStats, or AggregateStats with operator authorization",
        schema: z.union([PublicStats, AggregateStats]),
        headers: ["X-RateLimit-Remaining"],
      },
    },
    errors: [
      "CREDENTIAL_IN_QUERY",
      "INVALID_PARAMETER",
      "OPERATOR_UNAUTHORIZED",
      "TOO_MANY_FAILED_AUTHENTICATIONS",
      "RATE_LIMITED",
      "PERSISTENCE_UNAVAILABLE",
    ],
  }),
  events: defineRoute({
    group: "Discovery",
    method: "post",
    path: "/v1/events",
    summary: "A product event of the site (pageViewed, ctaClicked), kept only as a daily aggregate counter",
    description: `Fixed enum dimensions only: page one of ${ProductPage.options.join(", ")}; cta one of ${ProductCta.options.join(", ")}. Any other field is 400. Nothing identifying is read or stored (no address, wallet, key, user agent or referrer). Bodies up to 1 KiB.`,
    access: "public",
    request: { body: jsonRequestBody(ProductEvent) },
    maxBodyBytes: 1024,
    responses: { 202: { description: "Counted (no body)" } },
    errors: [...bodyErrors, "CREDENTIAL_IN_QUERY", "RATE_LIMITED"],
  }),
  samples: defineRoute({
    group: "Discovery",
    method: "get",
    path: "/v1/samples",
    summary: "The free frozen samples of the paid routes",
    access: "public",
    responses: { 200: { description: "Sample index", schema: SampleIndex, headers: ["X-RateLimit-Remaining"] } },
    errors: ["CREDENTIAL_IN_QUERY", "RATE_LIMITED"],
  }),
  sample: defineRoute({
    group: "Discovery",
    method: "get",
    path: "/v1/sample",
    summary: "One frozen sample envelope: a real paid answer captured from the devnet (never current, never payment-gated)",
    description: `Names: ${sampleNames.join(", ")}. Any other name is 404 UNKNOWN_SAMPLE.`,
    access: "public",
    request: {
      query: z.object({
        name: documentedEnum(z.string().max(64), sampleNames).meta({ description: `One of ${sampleNames.join(", ")}` }),
      }),
    },
    responses: { 200: { description: "Sample envelope", schema: SampleEnvelope, headers: ["X-RateLimit-Remaining"] } },
    errors: ["CREDENTIAL_IN_QUERY", "INVALID_PARAMETER", "UNKNOWN_SAMPLE", "RATE_LIMITED"],
  }),
  site: defineRoute({
    ...staticRoute,
    group: "Site",
    path: "/",
    summary: "The site: what the service does, plans, a demo audit, status, and how to connect",
  }),
  siteAsset: defineRoute({
    ...staticRoute,
    group: "Site",
    path: "/site/{file}",
    summary: "The site's script and style sheet",
    request: fileParam,
  }),
  docs: defineRoute({
    ...staticRoute,
    group: "Site",
    path: "/docs",
    summary: "Interactive API documentation of the OpenAPI document (Swagger UI, served from this origin)",
  }),
  docsAsset: defineRoute({
    ...staticRoute,
    group: "Site",
    path: "/docs/{file}",
    summary: "The docs page's script and style sheets (its own and swagger-ui-dist's)",
    request: fileParam,
  }),
  x402Discovery: defineRoute({
    group: "Discovery",
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
    group: "Keys and payments",
    method: "get",
    path: "/v1/plans",
    summary: "The authoritative plan and price catalogue",
    access: "public",
    responses: { 200: { description: "Plans", schema: Plans, headers: ["X-RateLimit-Remaining"] } },
    errors: ["CREDENTIAL_IN_QUERY", "RATE_LIMITED"],
  }),
  demoAudit: defineRoute({
    group: "Capability",
    method: "get",
    path: "/v1/demo/audit/{address}",
    summary: "Free demo: full evidence for the published samples, a tiered preview for any other address",
    access: "public",
    counted: true,
    request: addressPath,
    responses: {
      200: {
        description: "AuditResponse or a PREVIEW record, both with `demo: {allowlisted, samples}`: the samples",
        headers: provenanceHeaders,
      },
    },
    errors: ["CREDENTIAL_IN_QUERY", "INVALID_ADDRESS", "RATE_LIMITED", ...observationErrors],
  }),
  audit: defineRoute({
    group: "Capability",
    method: "get",
    path: "/v1/audit/{address}",
    summary: "Capability observations, proxy resolution and coverage index of one address at a pinned block",
    access: "apiKeyOrX402",
    counted: true,
    credits: 1,
    x402PriceUsd: 0.02,
    request: addressPath,
    responses: { 200: { description: "AuditResponse", schema: AuditResponse, headers: meteredHeaders } },
    errors: [...meteredErrors, "PAYMENT_REQUIRED", "INVALID_ADDRESS", "METHOD_NOT_ALLOWED", ...observationErrors],
  }),
  score: defineRoute({
    group: "Capability",
    method: "get",
    path: "/v1/security/score/{address}",
    summary: "Coverage index with its deduction breakdown (legacy URL)",
    access: "apiKeyOrX402",
    counted: true,
    credits: 1,
    x402PriceUsd: 0.02,
    request: addressPath,
    responses: { 200: { description: "ScoreResponse", schema: ScoreResponse, headers: meteredHeaders } },
    errors: [...meteredErrors, "PAYMENT_REQUIRED", "INVALID_ADDRESS", ...observationErrors],
  }),
  dexMetrics: defineRoute({
    group: "Market",
    method: "get",
    path: "/v1/dex/metrics",
    summary: "Reserves, ±2% depth and 24 h volume summed over the tracked pools, with the exact coverage",
    access: "apiKeyOrX402",
    counted: true,
    credits: 1,
    x402PriceUsd: 0.01,
    responses: { 200: { description: "DexMetricsResponse", schema: DexMetricsResponse, headers: meteredHeaders } },
    errors: [...meteredErrors, "PAYMENT_REQUIRED", ...observationErrors],
  }),
  tokenPrice: defineRoute({
    group: "Market",
    method: "get",
    path: "/v1/token/price/{symbol}",
    summary: "USD price of a tracked token: the median of its up-to-five deepest indexed pools",
    description: `Symbols: ${marketSymbols.join(", ")}, matched case-insensitively (the answer spells it canonically). An untracked symbol is 404 UNKNOWN_SYMBOL with the supported list.`,
    access: "apiKeyOrX402",
    counted: true,
    credits: 1,
    x402PriceUsd: 0.005,
    request: {
      params: z.object({
        symbol: documentedEnum(SymbolParam, marketSymbols).meta({ description: "A tracked symbol, matched case-insensitively" }),
      }),
    },
    responses: { 200: { description: "TokenPriceResponse", schema: TokenPriceResponse, headers: meteredHeaders } },
    errors: [...meteredErrors, "PAYMENT_REQUIRED", "INVALID_PARAMETER", "UNKNOWN_SYMBOL", ...observationErrors],
  }),
  whaleSignals: defineRoute({
    group: "Market",
    method: "get",
    path: "/v1/whales/signals",
    summary: "The newest (at most 50) tracked-token transfers at or above their threshold, in a bounded recent block window",
    access: "apiKeyOrX402",
    counted: true,
    credits: 1,
    x402PriceUsd: 0.02,
    responses: { 200: { description: "WhaleSignalsResponse", schema: WhaleSignalsResponse, headers: meteredHeaders } },
    errors: [...meteredErrors, "PAYMENT_REQUIRED", ...observationErrors],
  }),
  preflight: defineRoute({
    group: "Capability",
    method: "post",
    path: "/v1/transaction/preflight",
    summary: "Transaction preflight evidence at a pinned block (API key or marketplace gateway; not x402)",
    description:
      "One decision credit, charged only after a valid evidence-grade answer is prepared; 503 when evidence grade cannot be reached. Bodies up to 320 KiB (128 KiB of calldata as hex).",
    access: "apiKeyOrGateway",
    counted: true,
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
    group: "Market",
    method: "get",
    path: "/v1/gas/fees",
    summary:
      "Base gas fees at a pinned block: eth_gasPrice, the next block's base fee, priority-fee percentiles and the L1 data-fee parameters",
    description: `Every figure is read at one block pinned at evidence grade (its provider and trust level in the headers and in provenance): priority-fee percentiles come from eth_feeHistory over the ${feeHistoryBlocks} blocks ending there, the L1 parameters from the GasPriceOracle predeploy. Cached for at most one block. The route takes no query parameters and ignores unknown ones (credential-shaped ones are 401).`,
    access: "apiKeyOrX402",
    counted: true,
    credits: 1,
    x402PriceUsd: 0.005,
    responses: { 200: { description: "GasFees", schema: GasFees, headers: meteredHeaders } },
    errors: [...meteredErrors, "PAYMENT_REQUIRED", ...observationErrors],
  }),
  freeChallenge: defineRoute({
    group: "Keys and payments",
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
    group: "Keys and payments",
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
    group: "Keys and payments",
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
    group: "Keys and payments",
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
    group: "Keys and payments",
    method: "get",
    path: "/v1/keys/self",
    summary: "Metadata and credits of the presented API key (never its secret; x402 cannot use this route)",
    access: "apiKey",
    responses: { 200: { description: "KeySelf", schema: KeySelf, headers: ["X-RateLimit-Remaining", "X-Credits-Remaining"] } },
    errors: keyErrors,
  }),
  keyRevoke: defineRoute({
    group: "Keys and payments",
    method: "post",
    path: "/v1/keys/revoke",
    summary: "Revokes the presented API key permanently (body {confirm: true})",
    access: "apiKey",
    request: { body: jsonRequestBody(RevokeBody) },
    responses: { 200: { description: "Revoke result", schema: RevokeResult } },
    errors: [...keyErrors, ...bodyErrors, "CONFIRMATION_REQUIRED"],
  }),
  recoveryChallenge: defineRoute({
    group: "Keys and payments",
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
    group: "Keys and payments",
    method: "post",
    path: "/v1/keys/recovery/claim",
    summary: "Replaces a paid key's secret atomically (tier and expiry kept; the replacement is shown once)",
    access: "public",
    appStore: true,
    request: { body: jsonRequestBody(ClaimBody) },
    responses: { 200: { description: "IssuedKey (REPLACED)", schema: IssuedKey } },
    errors: [...challengeClaimErrors, "RECOVERY_CHALLENGE_CONSUMED", "RECOVERY_TARGET_CHANGED", "NO_RECOVERABLE_KEY"],
  }),
  mcp: defineRoute({
    group: "MCP",
    method: "post",
    path: "/mcp",
    summary: "MCP Streamable HTTP: one JSON-RPC request, notification or response per POST (a JSON object)",
    description:
      "Negotiates protocol 2026-07-28 and the stateless 2025-era versions (2025-11-25, 2025-06-18, 2025-03-26). No credential is needed to connect: each tool call enforces its REST route's access from this request's headers (x-api-key or Authorization: Bearer, or PAYMENT-SIGNATURE). Protocol errors are JSON-RPC error objects (the service's code in error.data.error). Limited per client address: MCP_REQUESTS_PER_MINUTE over POST /mcp, GET /sse and POST /messages together, beyond it 429 RATE_LIMITED with Retry-After. Tools and their schemas: GET /.well-known/mcp/server-card.json.",
    access: "public",
    rateLimited: "MCP",
    responses: {
      200: { description: "The JSON-RPC response as application/json, or as a text/event-stream, per the Accept header and the protocol" },
      202: { description: "A notification or response was accepted; no body" },
    },
    errors: ["CREDENTIAL_IN_QUERY", "MCP_INVALID_MESSAGE", "MCP_ORIGIN_REJECTED", "MCP_NOT_ACCEPTABLE", "BODY_TOO_LARGE", "RATE_LIMITED"],
  }),
  mcpStream: defineRoute({
    group: "MCP",
    method: "get",
    path: "/mcp",
    summary: "MCP server event stream: 405 with Allow: POST, as this endpoint is stateless (no listenable stream)",
    access: "public",
    rateLimited: "MCP",
    responses: {},
    errors: ["CREDENTIAL_IN_QUERY", "MCP_ORIGIN_REJECTED", "METHOD_NOT_ALLOWED", "RATE_LIMITED"],
  }),
  mcpSse: defineRoute({
    group: "MCP",
    method: "get",
    path: "/sse",
    summary: "Legacy MCP HTTP+SSE stream (protocol 2024-11-05 clients): an endpoint event, then the session's messages",
    description:
      "One stream per session, closed and freed when the client goes, when no message was posted to it for MCP_SSE_IDLE_SECONDS, or when more than MCP_SSE_MAX_QUEUED_BYTES of its replies wait unread; a keep-alive comment every 15 s. Open streams are bounded per client address (MCP_MAX_SSE_STREAMS_PER_CLIENT: beyond it 429 MCP_TOO_MANY_STREAMS) and per replica (MCP_MAX_SSE_STREAMS: beyond it 503 MCP_STREAMS_EXHAUSTED).",
    access: "public",
    rateLimited: "MCP",
    responses: { 200: { description: "text/event-stream: `event: endpoint` with /messages?sessionId=..., then `event: message` frames" } },
    errors: ["CREDENTIAL_IN_QUERY", "MCP_ORIGIN_REJECTED", "MCP_STREAMS_EXHAUSTED", "MCP_TOO_MANY_STREAMS", "RATE_LIMITED"],
  }),
  mcpMessages: defineRoute({
    group: "MCP",
    method: "post",
    path: "/messages",
    summary: "Legacy MCP message handler paired with GET /sse: one JSON-RPC message per POST; the reply travels on the stream",
    access: "public",
    rateLimited: "MCP",
    request: { query: z.object({ sessionId: z.string().max(64).describe("The sessionId named by the /sse endpoint event") }) },
    responses: {
      200: { description: "{accepted: true}: the message was handed to the session", schema: z.object({ accepted: z.literal(true) }) },
    },
    errors: [
      "CREDENTIAL_IN_QUERY",
      "INVALID_PARAMETER",
      "MCP_INVALID_MESSAGE",
      "MCP_ORIGIN_REJECTED",
      "MCP_SESSION_NOT_FOUND",
      "BODY_TOO_LARGE",
      "RATE_LIMITED",
    ],
  }),
  mcpServerCard: defineRoute({
    group: "MCP",
    method: "get",
    path: "/.well-known/mcp/server-card.json",
    summary: "MCP server card: server info, transports and their URLs, the authentication headers, and each tool with its input schema",
    access: "public",
    rateLimited: false,
    responses: { 200: { description: "The server card" } },
    errors: ["CREDENTIAL_IN_QUERY"],
  }),
  mcpRegistryEntry: defineRoute({
    group: "MCP",
    method: "get",
    path: "/.well-known/mcp/server.json",
    summary: "MCP registry entry (server.json, the official registry's 2025-12-11 schema): the remote endpoints and the stdio npm package",
    description:
      "What an operator publishes to the official MCP registry with its publisher CLI (mcp-publisher publish). Built from the same definitions as the server card: the same name, version, description and endpoint URLs.",
    access: "public",
    rateLimited: false,
    responses: { 200: { description: "The server.json document" } },
    errors: ["CREDENTIAL_IN_QUERY"],
  }),
  gatewayProxyDigest: defineRoute({
    group: "Operator",
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
