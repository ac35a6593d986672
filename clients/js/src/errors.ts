import { decodeBase64Json } from "./base64.js";
import type { PaymentChallenge } from "./types.js";

/** Fields of an error body beyond `error` and `message` (`retryable`, `issues`, `supported`, `cycleEndsAt`...). */
export type ErrorDetails = Record<string, unknown>;

/**
 * A refusal by the service (`{error, message, ...details}` with an HTTP status), or a failure of the
 * call itself (`CONNECTION_FAILED`, `TIMEOUT`, `PAYMENT_CAP_EXCEEDED`, `INVALID_RESPONSE`: status 0).
 * Switch on `code`; the subclasses name the cases a caller usually handles.
 */
export class ServiceError extends Error {
  override name = "ServiceError";
  constructor(
    /** The service's stable code, e.g. `RATE_LIMITED`. */
    readonly code: string,
    message: string,
    /** The HTTP status; 0 when no answer was received. */
    readonly status: number,
    readonly details: ErrorDetails = {},
  ) {
    super(message);
  }
}

/** 402 on a payable route: no credential (`PAYMENT_REQUIRED`), or a payment refused (`PAYMENT_INVALID`, `PAYMENT_SETTLEMENT_FAILED`). */
export class PaymentRequiredError extends ServiceError {
  override name = "PaymentRequiredError";
  constructor(
    code: string,
    message: string,
    status: number,
    details: ErrorDetails,
    /** The decoded x402 challenge of the `PAYMENT-REQUIRED` header (null when the answer carried none). */
    readonly challenge: PaymentChallenge | null,
  ) {
    super(code, message, status, details);
  }
}

/** The client's own spending cap refused to pay a challenge (nothing was signed or sent). */
export class PaymentCapExceededError extends PaymentRequiredError {
  override name = "PaymentCapExceededError";
}

/** 402 `CREDITS_EXHAUSTED`: the key's credits for this 31-day cycle are spent (`cycleEndsAt`). */
export class CreditsExhaustedError extends ServiceError {
  override name = "CreditsExhaustedError";
  get cycleEndsAt(): string | undefined {
    return typeof this.details.cycleEndsAt === "string" ? this.details.cycleEndsAt : undefined;
  }
}

/** 402 `API_KEY_EXPIRED`: a paid key past its expiry; renew it. */
export class ExpiredKeyError extends ServiceError {
  override name = "ExpiredKeyError";
}

/** 401: no key where one is required, or a key that is unknown, revoked or sent in the URL. */
export class AuthenticationError extends ServiceError {
  override name = "AuthenticationError";
}

/** 429 (`RATE_LIMITED`, `DAILY_LIMIT_REACHED`, ...): wait `retryAfter` seconds. */
export class RateLimitedError extends ServiceError {
  override name = "RateLimitedError";
  constructor(
    code: string,
    message: string,
    status: number,
    details: ErrorDetails,
    /** Seconds to wait, from `Retry-After`. */
    readonly retryAfter: number,
  ) {
    super(code, message, status, details);
  }
}

/** 503 `DATA_SOURCE_UNAVAILABLE`: evidence-grade data cannot be had now (nothing was charged). */
export class DataSourceUnavailableError extends ServiceError {
  override name = "DataSourceUnavailableError";
}

/** 400, or 404 `UNKNOWN_SYMBOL` (with `details.supported`): the request itself is wrong. */
export class InvalidInputError extends ServiceError {
  override name = "InvalidInputError";
}

/** The typed error for an answer that is not a 2xx. */
export function errorFromResponse(status: number, body: unknown, headers: Headers): ServiceError {
  const { error, message, ...details } = (isRecord(body) ? body : {}) as { error?: unknown; message?: unknown } & ErrorDetails;
  const code = typeof error === "string" ? error : `HTTP_${status}`;
  const text = typeof message === "string" ? message : `HTTP ${status}`;
  if (status === 402) {
    if (code === "CREDITS_EXHAUSTED") return new CreditsExhaustedError(code, text, status, details);
    if (code === "API_KEY_EXPIRED") return new ExpiredKeyError(code, text, status, details);
    return new PaymentRequiredError(code, text, status, details, decodeChallenge(headers));
  }
  if (status === 429) return new RateLimitedError(code, text, status, details, retryAfterSeconds(headers) ?? 60);
  if (status === 401) return new AuthenticationError(code, text, status, details);
  if (code === "DATA_SOURCE_UNAVAILABLE") return new DataSourceUnavailableError(code, text, status, details);
  if (status === 400 || code === "UNKNOWN_SYMBOL") return new InvalidInputError(code, text, status, details);
  return new ServiceError(code, text, status, details);
}

/** `Retry-After` as whole seconds (the service sends an integer), else null. */
export function retryAfterSeconds(headers: Headers): number | null {
  const value = Number(headers.get("retry-after"));
  return Number.isFinite(value) && value >= 0 && headers.has("retry-after") ? value : null;
}

function decodeChallenge(headers: Headers): PaymentChallenge | null {
  const header = headers.get("payment-required");
  return header ? (decodeBase64Json(header) as PaymentChallenge | null) : null;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
