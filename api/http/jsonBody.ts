import type { MiddlewareHandler } from "hono";
import { ApiError } from "../errors";

export type JsonBodyOptions = { maxBytes: number };

/**
 * Reads a JSON request body before the route's schema sees it: a wrong content type is 400, a body
 * larger than `maxBytes` is 413 (refused by its Content-Length at once, and never buffered past the
 * cap while streaming), malformed JSON is 400.
 */
export function jsonBody({ maxBytes }: JsonBodyOptions): MiddlewareHandler {
  const tooLarge = () => new ApiError("BODY_TOO_LARGE", `the body must be at most ${maxBytes} bytes`, { maxBytes });
  return async function jsonBody(c, next) {
    if (!/^application\/(.+\+)?json\b/i.test(c.req.header("content-type") ?? "")) {
      throw new ApiError("UNSUPPORTED_CONTENT_TYPE", "the body must be JSON with content-type application/json");
    }
    if (Number(c.req.header("content-length") ?? 0) > maxBytes) throw tooLarge();
    const text = await readCapped(c.req.raw.body, maxBytes);
    if (text === null) throw tooLarge();
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw new ApiError("MALFORMED_JSON", "the body is not valid JSON");
    }
    // The route's validator reads the parsed body from Hono's cache (a promise: a falsy JSON value would miss it).
    c.req.bodyCache.json = Promise.resolve(value);
    await next();
  };
}

/** The stream's text, or null as soon as it passes `maxBytes` (the rest is not read). */
export async function readCapped(body: ReadableStream<Uint8Array> | null, maxBytes: number): Promise<string | null> {
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
