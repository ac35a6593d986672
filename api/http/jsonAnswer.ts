import type { Context, TypedResponse } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { JSONParsed } from "hono/utils/types";
import { answer } from "./answer";

/** What `c.json(value, status)` returns, as a route handler's type checks it. */
type JsonAnswer<T, S extends ContentfulStatusCode> = Response & TypedResponse<JSONParsed<T>, S, "json">;

/** `c.json(value, status, headers)`, built by `answer`: the headers a plain record, the credit meter's charge before it. */
export function answerJson<T extends object, S extends ContentfulStatusCode>(
  c: Context,
  value: T,
  status: S,
  headers: Record<string, string> = {},
): Promise<JsonAnswer<T, S>> {
  return jsonText(c, JSON.stringify(value), status, headers);
}

/** The JSON text of answer objects that many requests share, each serialised once. */
const serialized = new WeakMap<object, string>();

/**
 * `answerJson` for an answer object that many requests share (a market answer is one object per
 * reading of the index): its JSON text is made once and sent to each of them. Serialising the price
 * answer's 2.4 KB on every call was 6% of the price route's time under load. A shared answer is never
 * changed once it has been answered.
 */
export function sharedJson<T extends object, S extends ContentfulStatusCode>(
  c: Context,
  value: T,
  status: S,
  headers: Record<string, string>,
): Promise<JsonAnswer<T, S>> {
  let text = serialized.get(value);
  if (text === undefined) {
    text = JSON.stringify(value);
    serialized.set(value, text);
  }
  return jsonText(c, text, status, headers);
}

function jsonText<T, S extends ContentfulStatusCode>(c: Context, text: string, status: S, headers: Record<string, string>) {
  // The body is the value's JSON: typed as c.json would type it.
  return answer(c, text, status, { ...headers, "content-type": "application/json" }) as Promise<JsonAnswer<T, S>>;
}
