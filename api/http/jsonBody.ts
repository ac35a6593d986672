import type { MiddlewareHandler } from "hono";
import { ApiError } from "../errors";

export type JsonBodyParameters = { maxBytes: number };

/**
 * Reads a JSON request body before the route's schema sees it: a wrong content type is 400, a body
 * larger than `maxBytes` is 413 (refused by its Content-Length at once, and never buffered past the
 * cap while streaming), malformed JSON is 400.
 */
export function jsonBody({ maxBytes }: JsonBodyParameters): MiddlewareHandler {
  return async function jsonBody(c, next) {
    if (!/^application\/(.+\+)?json\b/i.test(c.req.header("content-type") ?? "")) {
      throw new ApiError("UNSUPPORTED_CONTENT_TYPE", "the body must be JSON with content-type application/json");
    }
    const body = await readJsonBody(c.req.raw, maxBytes);
    if (body.kind === "tooLarge") throw new ApiError("BODY_TOO_LARGE", `the body must be at most ${maxBytes} bytes`, { maxBytes });
    if (body.kind === "malformed") throw new ApiError("MALFORMED_JSON", "the body is not valid JSON");
    // The route's validator reads the parsed body from Hono's cache (a promise: a falsy JSON value would miss it).
    c.req.bodyCache.json = Promise.resolve(body.value);
    await next();
  };
}

/** A request's body parsed as JSON, or why not: larger than `maxBytes` (by its Content-Length, or while streaming), or not JSON. */
export type JsonBodyRead = { kind: "json"; value: unknown } | { kind: "tooLarge" } | { kind: "malformed" };

/** Reads `request`'s body as JSON, never buffering past `maxBytes` (REST bodies and MCP messages). */
export async function readJsonBody(request: Request, maxBytes: number): Promise<JsonBodyRead> {
  if (Number(request.headers.get("content-length") ?? 0) > maxBytes) return { kind: "tooLarge" };
  const text = await readCapped(request.body, maxBytes);
  if (text === null) return { kind: "tooLarge" };
  try {
    return { kind: "json", value: JSON.parse(text) };
  } catch {
    return { kind: "malformed" };
  }
}

/** The stream's text, or null as soon as it passes `maxBytes` (the rest is not read). */
async function readCapped(body: ReadableStream<Uint8Array> | null, maxBytes: number): Promise<string | null> {
  if (!body) return "";
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}
