import type { Context, Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { ApiError } from "../errors";

/** Answers what no route took: 405 with `Allow` when the path exists under other methods, else 404. */
export function methodNotAllowedOrNotFound(app: Hono) {
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
      return c.json(
        { error: "METHOD_NOT_ALLOWED", message: `${c.req.method} is not allowed on ${c.req.path}; use ${allowed.join(", ")}` },
        405,
        { Allow: allowed.join(", ") },
      );
    }
    return c.json({ error: "NOT_FOUND", message: `no route ${c.req.method} ${c.req.path}` }, 404);
  };
}

/** Every error becomes the one JSON error shape; anything unexpected is a 500 that leaks no detail. */
export function handleError(err: Error, c: Context, log: (message: string, err: unknown) => void = defaultLog) {
  if (err instanceof ApiError) return c.json(err.body(), err.status, err.headers);
  if (err instanceof HTTPException) {
    const res = err.getResponse();
    return c.json({ error: httpCode(err.status), message: err.message || res.statusText || "request failed" }, err.status);
  }
  log(`unhandled error on ${c.req.method} ${c.req.path}`, err);
  return c.json({ error: "INTERNAL_ERROR", message: "the service failed to answer this request" }, 500);
}

function httpCode(status: number): string {
  if (status === 400) return "BAD_REQUEST";
  if (status === 401) return "UNAUTHORIZED";
  if (status === 413) return "BODY_TOO_LARGE";
  return `HTTP_${status}`;
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
