import type { ContentfulStatusCode } from "hono/utils/http-status";

type ErrorCodeSpec = { status: ContentfulStatusCode; retryable: boolean; description: string };

/**
 * Every error code the service answers with: its HTTP status (decided here, once) and whether the
 * same request may succeed later. Services answer in these codes; only the HTTP layer (and MCP) turns
 * a code into a status.
 */
export const errorCodes = {
  INVALID_PARAMETER: { status: 400, retryable: false, description: "a path or query parameter is malformed" },
  INVALID_ADDRESS: { status: 400, retryable: false, description: "an address is not 0x + 40 hex digits with a valid checksum" },
  INVALID_BODY: { status: 400, retryable: false, description: "the JSON body does not match the route's schema (issues name each field)" },
  MALFORMED_JSON: { status: 400, retryable: false, description: "the body is not valid JSON" },
  UNSUPPORTED_CONTENT_TYPE: { status: 400, retryable: false, description: "the body is not sent as application/json" },
  INVALID_BLOCK_NUMBER: { status: 400, retryable: false, description: "the requested block is ahead of every provider's head" },
  CONFIRMATION_REQUIRED: { status: 400, retryable: false, description: "revocation needs {confirm: true}" },
  INTENT_NOT_FOUND: { status: 400, retryable: false, description: "no intent of this kind has this intentId" },
  INTENT_EXPIRED: { status: 400, retryable: false, description: "the intent (or the payment's block) is past the intent's 15 minutes" },
  INTENT_ALREADY_USED: { status: 400, retryable: false, description: "the purchase intent was already redeemed" },
  INTENT_SIGNATURE_INVALID: {
    status: 400,
    retryable: false,
    description: "the purchase claim is not signed by the intent's wallet",
  },
  CHALLENGE_ORIGIN_MISMATCH: {
    status: 400,
    retryable: false,
    description: "the signed challenge names an origin or chain this service does not serve",
  },
  RENEWAL_TARGET_INVALID: { status: 400, retryable: false, description: "the presented key cannot be renewed by this purchase" },
  TX_ALREADY_REDEEMED: { status: 400, retryable: false, description: "the transaction was already redeemed (a txHash redeems once)" },
  PAYMENT_NOT_FOUND: { status: 400, retryable: true, description: "no mined payment to the payout address has this hash (yet)" },
  PAYMENT_NOT_INDEXED: { status: 400, retryable: true, description: "the USDC transfer is not indexed yet" },
  PAYMENT_NOT_FINAL: {
    status: 400,
    retryable: true,
    description: "the payment has fewer than 3 confirmations, or its block is not canonical",
  },
  PAYMENT_SENDER_MISMATCH: { status: 400, retryable: false, description: "the payment was not sent by the intent's wallet" },
  PAYMENT_AMOUNT_MISMATCH: { status: 400, retryable: false, description: "the payment is not the intent's exact amount" },
  PAYMENT_FAILED: { status: 400, retryable: false, description: "the payment transaction reverted" },
  ETH_NOT_OFFERED: { status: 400, retryable: false, description: "the intent has no ETH amount: pay in USDC" },
  PROXY_SECRET_REQUIRED: { status: 400, retryable: false, description: "x-gateway-proxy-secret is missing" },
  GATEWAY_HEADERS_REQUIRED: { status: 400, retryable: false, description: "no marketplace gateway header was sent" },
  CREDENTIAL_IN_QUERY: { status: 401, retryable: false, description: "a credential was sent in the URL: rotate it" },
  CREDENTIAL_REQUIRED: { status: 401, retryable: false, description: "an API key or marketplace gateway authentication is required" },
  API_KEY_REQUIRED: { status: 401, retryable: false, description: "an API key is required (x402 cannot be used here)" },
  INVALID_API_KEY: { status: 401, retryable: false, description: "the API key is not valid" },
  API_KEY_REVOKED: { status: 401, retryable: false, description: "the API key was revoked" },
  CONFLICTING_CREDENTIALS: { status: 401, retryable: false, description: "x-api-key and Authorization: Bearer carry different keys" },
  INVALID_GATEWAY_CREDENTIAL: { status: 401, retryable: false, description: "marketplace gateway authentication failed" },
  OPERATOR_UNAUTHORIZED: { status: 401, retryable: false, description: "the operator token is missing or wrong" },
  SIGNATURE_INVALID: { status: 401, retryable: false, description: "the claim is not signed by the challenge's wallet" },
  PAYMENT_REQUIRED: {
    status: 402,
    retryable: false,
    description: "no credential on a payable route: an API key, or an x402 payment (the challenge is in PAYMENT-REQUIRED)",
  },
  PAYMENT_INVALID: {
    status: 402,
    retryable: false,
    description: "the x402 payment was refused before any work (`reason` says why; PAYMENT-REQUIRED carries a fresh challenge)",
  },
  PAYMENT_SETTLEMENT_FAILED: {
    status: 402,
    retryable: false,
    description: "the x402 payment could not be settled, so the answer was withheld (`reason`; the receipt is in PAYMENT-RESPONSE)",
  },
  PAYMENT_ID_INVALID: {
    status: 400,
    retryable: false,
    description: "the payment-identifier id is not 16-128 characters of letters, digits, `-` and `_`: nothing was verified or taken",
  },
  PAYMENT_ID_CONFLICT: {
    status: 409,
    retryable: false,
    description: "the payment-identifier id was used for another request (route, resource, terms or payer): nothing was taken",
  },
  PAYMENT_PENDING: {
    status: 409,
    retryable: true,
    description:
      "this payment's settlement is in progress or its outcome is not known yet: retry the same payment (or id) after Retry-After; do not pay again",
  },
  API_KEY_EXPIRED: { status: 402, retryable: false, description: "the paid key expired: renew it or buy a new one" },
  CREDITS_EXHAUSTED: { status: 402, retryable: false, description: "the credits of the current 31-day cycle are spent" },
  MCP_INVALID_MESSAGE: {
    status: 400,
    retryable: false,
    description: "the MCP body is not one JSON-RPC message (bad JSON, a batch array, or not JSON-RPC); answered as a JSON-RPC error",
  },
  MCP_ORIGIN_REJECTED: {
    status: 403,
    retryable: false,
    description: "the request's Origin is not among the MCP endpoints' allowed origins",
  },
  MCP_SESSION_NOT_FOUND: {
    status: 404,
    retryable: false,
    description: "no open legacy SSE session has this sessionId (open GET /sse first)",
  },
  MCP_NOT_ACCEPTABLE: { status: 406, retryable: false, description: "Accept allows neither application/json nor text/event-stream" },
  NOT_FOUND: { status: 404, retryable: false, description: "no such route (the operator bootstrap route is 404 unless configured)" },
  UNKNOWN_SYMBOL: { status: 404, retryable: false, description: "the token symbol is not tracked (the answer lists the supported ones)" },
  UNKNOWN_SAMPLE: { status: 404, retryable: false, description: "no sample has this name (the answer lists them)" },
  METHOD_NOT_ALLOWED: { status: 405, retryable: false, description: "the path exists under other methods (see Allow)" },
  FREE_KEY_EXISTS: { status: 409, retryable: false, description: "the wallet already has its free key" },
  RECOVERY_CHALLENGE_CONSUMED: { status: 409, retryable: false, description: "the recovery challenge was already used" },
  RECOVERY_TARGET_CHANGED: { status: 409, retryable: false, description: "the key changed since the recovery challenge" },
  NO_RECOVERABLE_KEY: { status: 409, retryable: false, description: "the wallet holds no paid key that can be recovered" },
  BODY_TOO_LARGE: { status: 413, retryable: false, description: "the body is larger than the route accepts" },
  RATE_LIMITED: { status: 429, retryable: true, description: "too many requests this minute (Retry-After gives seconds)" },
  DAILY_LIMIT_REACHED: { status: 429, retryable: true, description: "a free key's decisions for today are used (Retry-After)" },
  TOO_MANY_FAILED_AUTHENTICATIONS: {
    status: 429,
    retryable: true,
    description: "this client address presented too many wrong credentials this minute; new ones are not checked until Retry-After",
  },
  TOO_MANY_OPEN_INTENTS: {
    status: 429,
    retryable: true,
    description: "the wallet holds the most open intents allowed: claim one, or retry when one expires (Retry-After)",
  },
  MCP_TOO_MANY_STREAMS: {
    status: 429,
    retryable: true,
    description: "this client address holds its open legacy SSE streams (MCP_MAX_SSE_STREAMS_PER_CLIENT): close one (Retry-After)",
  },
  INTENT_RATE_LIMITED: { status: 429, retryable: true, description: "this client address created its intents for the hour (Retry-After)" },
  INTERNAL_ERROR: { status: 500, retryable: false, description: "the service failed to answer (no detail is given)" },
  DATA_SOURCE_UNAVAILABLE: {
    status: 503,
    retryable: true,
    description: "a live value cannot be had at evidence grade: never a guessed one",
  },
  MCP_STREAMS_EXHAUSTED: {
    status: 503,
    retryable: true,
    description: "every legacy SSE stream this replica serves is open (MCP_MAX_SSE_STREAMS); retry later or use /mcp",
  },
  PERSISTENCE_UNAVAILABLE: { status: 503, retryable: true, description: "the key store is unreachable" },
  NOT_READY: { status: 503, retryable: true, description: "the indexer's historical backfill is not complete (GET /ready)" },
  INDEX_UNAVAILABLE: { status: 503, retryable: true, description: "the index store cannot be read (GET /ready)" },
  PAYMENTS_UNAVAILABLE: { status: 503, retryable: false, description: "no payout address is configured" },
  PAYMENT_FACILITATOR_UNAVAILABLE: {
    status: 503,
    retryable: true,
    description: "the x402 facilitator (or the chain it settles on) cannot be reached: nothing was verified, served or taken",
  },
} as const satisfies Record<string, ErrorCodeSpec>;

export type ErrorCode = keyof typeof errorCodes;

/** A service's refusal: a code (its status lives in `errorCodes`), a message for people, optional details. */
export type Failure = { ok: false; code: ErrorCode; message: string; details?: Record<string, unknown> };

/** A service's answer: a value, or a refusal the caller (HTTP or MCP) turns into its own form. */
export type Result<T> = { ok: true; value: T } | Failure;

export const success = <T>(value: T): Result<T> => ({ ok: true, value });

export const failure = (code: ErrorCode, message: string, details?: Record<string, unknown>): Failure =>
  details ? { ok: false, code, message, details } : { ok: false, code, message };

/** The one error shape on the wire: a stable SNAKE_CASE code for programs, a message for people. */
export type ErrorBody = { error: ErrorCode; message: string } & Record<string, unknown>;

/**
 * An error the HTTP layer answers with: its status comes from the code's entry in `errorCodes`.
 * Anything else thrown is a 500 INTERNAL_ERROR (or 503 PERSISTENCE_UNAVAILABLE for an unreachable store).
 */
export class ApiError extends Error {
  override name = "ApiError";
  readonly status: ContentfulStatusCode;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.status = errorCodes[code].status;
  }

  /** The HTTP error of a service's refusal; one that names `retryAfterSeconds` carries it as Retry-After. */
  static of(refusal: Failure, headers: Record<string, string> = {}): ApiError {
    const retryAfter = refusal.details?.retryAfterSeconds;
    const retry: Record<string, string> = typeof retryAfter === "number" ? { "Retry-After": String(retryAfter) } : {};
    return new ApiError(refusal.code, refusal.message, refusal.details, { ...retry, ...headers });
  }

  body(): ErrorBody {
    return { error: this.code, message: this.message, ...this.details, ...(errorCodes[this.code].retryable ? { retryable: true } : {}) };
  }
}
