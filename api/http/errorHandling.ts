import type { Context, Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { ApiError } from "../errors";
import { isStoreUnavailable } from "../store/isStoreUnavailable";
import { buildAnswer } from "./answer";

/** Answers what no route took: 405 with `Allow` when the path exists under other methods, else 404. */
export function methodNotAllowedOrNotFound(app: Pick<Hono, "routes">) {
  const routes = () =>
    app.routes
      .filter((r) => r.method !== "ALL" && r.path !== "/*" && r.path !== "*")
      .map((r) => ({ method: r.method, pattern: pathPattern(r.path) }));
  let known: ReturnType<typeof routes> | undefined;
  return (c: Context) => {
    known ??= routes();
    const allowed = [...new Set(known.filter((r) => r.pattern.test(c.req.path)).map((r) => r.method))];
    if (allowed.length > 0) {
      if (allowed.includes("GET")) allowed.push("HEAD");
      const error = new ApiError("METHOD_NOT_ALLOWED", `${c.req.method} is not allowed on ${c.req.path}; use ${allowed.join(", ")}`);
      return errorAnswer(c, error, { Allow: allowed.join(", ") });
    }
    return errorAnswer(c, new ApiError("NOT_FOUND", `no route ${c.req.method} ${c.req.path}`));
  };
}

/**
 * Every error becomes the one JSON error shape, its status decided by its code; an unreachable app
 * store is 503 PERSISTENCE_UNAVAILABLE (here, and nowhere else); anything unexpected is a 500 that
 * leaks no detail.
 */
export function handleError(err: Error, c: Context, log: (message: string, err: unknown) => void = defaultLog) {
  const error = toApiError(err);
  if (error) return errorAnswer(c, error);
  log(`unhandled error on ${c.req.method} ${c.req.path}`, err);
  return errorAnswer(c, new ApiError("INTERNAL_ERROR", "the service failed to answer this request"));
}

/** `error` in the one JSON error shape, with its headers and `headers` (built by `buildAnswer`: nothing is charged for it). */
export function errorAnswer(c: Context, error: ApiError, headers: Record<string, string> = {}): Response {
  return buildAnswer(c, JSON.stringify(error.body()), error.status, { ...error.headers, ...headers, "content-type": "application/json" });
}

function toApiError(err: Error): ApiError | undefined {
  if (err instanceof ApiError) return err;
  if (isStoreUnavailable(err)) return new ApiError("PERSISTENCE_UNAVAILABLE", "the key store is unavailable; retry later");
  if (err instanceof HTTPException) {
    // Hono's own refusals: a body its validator could not read.
    if (err.status === 413) return new ApiError("BODY_TOO_LARGE", "the body is too large");
    if (err.status === 415) return new ApiError("UNSUPPORTED_CONTENT_TYPE", "the body must be JSON with content-type application/json");
    return new ApiError("INVALID_PARAMETER", err.message || "the request is malformed");
  }
  return undefined;
}

function pathPattern(path: string): RegExp {
  const source = path
    .split("/")
    .map((part) => (part.startsWith(":") ? "[^/]+" : part === "*" ? ".*" : part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
    .join("/");
  return new RegExp(`^${source}/?$`);
}

function defaultLog(message: string, err: unknown) {
  console.error(message, err instanceof Error ? err.stack : err);
}
