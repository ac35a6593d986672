import type { Context, TypedResponse } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { JSONParsed } from "hono/utils/types";
import { answer } from "./answer";

/** What `c.json(value, status)` returns, as a route handler's type checks it. */
type JsonAnswer<T, S extends ContentfulStatusCode> = Response & TypedResponse<JSONParsed<T>, S, "json">;

/** How a JSON answer is sent, beside its value. */
export type JsonAnswerParameters<S extends ContentfulStatusCode> = {
  /** Default 200. */
  status?: S;
  /** Headers of this answer (they win over those the middleware added). */
  headers?: Record<string, string>;
  /**
   * The value is one answer object that many requests share (a market answer is one object per reading
   * of the index): its JSON text is made once and sent to each of them. Serialising the price answer's
   * 2.4 KB on every call was 6% of the price route's time under load. A shared answer is never changed
   * once it has been answered.
   */
  shared?: boolean;
};

/** The JSON text of answer objects that many requests share, each serialised once. */
const serialized = new WeakMap<object, string>();

/**
 * The one way a route answers JSON: `value`'s JSON, built by `answer`, its headers one plain record
 * with those the middleware added (`answerHeader`), the credit meter's charge before it. Typed as
 * `c.json(value, status)` would be.
 */
export function answerJson<T extends object, S extends ContentfulStatusCode = 200>(
  c: Context,
  value: T,
  { status = 200 as S, headers = {}, shared = false }: JsonAnswerParameters<S> = {},
): Promise<JsonAnswer<T, S>> {
  let text = shared ? serialized.get(value) : undefined;
  if (text === undefined) {
    text = JSON.stringify(value);
    if (shared) serialized.set(value, text);
  }
  // The body is the value's JSON: typed as c.json would type it.
  return answer(c, text, status, { ...headers, "content-type": "application/json" }) as Promise<JsonAnswer<T, S>>;
}
