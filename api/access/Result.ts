import type { ApiError } from "../errors";

/** A service's answer: a value, or the error the route answers with (the caller decides). */
export type Result<T> = { ok: true; value: T } | { ok: false; error: ApiError };

export const success = <T>(value: T): Result<T> => ({ ok: true, value });
export const failure = <T = never>(error: ApiError): Result<T> => ({ ok: false, error });
