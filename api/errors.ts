import type { ContentfulStatusCode } from "hono/utils/http-status";

/** The one error shape on the wire: a stable SNAKE_CASE code for programs, a message for people. */
export type ErrorBody = { error: string; message: string } & Record<string, unknown>;

/**
 * An error a route answers with, by status and code. Anything else thrown is a 500 INTERNAL_ERROR.
 */
export class ApiError extends Error {
  override name = "ApiError";
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  body(): ErrorBody {
    return { error: this.code, message: this.message, ...this.extra };
  }
}

export const badRequest = (code: string, message: string, extra?: Record<string, unknown>) => new ApiError(400, code, message, extra);

/** 503 for a live value that cannot be had at evidence grade: never a guessed one. */
export const dataSourceUnavailable = (message: string, extra?: Record<string, unknown>) =>
  new ApiError(503, "DATA_SOURCE_UNAVAILABLE", message, extra);
