import type { Context, TypedResponse } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { JSONParsed } from "hono/utils/types";
import { answer } from "./answer";

/** The JSON text of answer objects that many requests share, each serialised once. */
const serialized = new WeakMap<object, string>();

/**
 * `c.json(value, status, headers)` for an answer object that many requests share (a market answer is
 * one object per reading of the index): its JSON text is made once and sent to each of them, as
 * `answer` builds it (the headers a plain record).
 * Serialising the price answer's 2.4 KB on every call was 6% of the price route's time under load.
 * A shared answer is never changed once it has been answered.
 */
export function sharedJson<T extends object, S extends ContentfulStatusCode>(
  c: Context,
  value: T,
  status: S,
  headers: Record<string, string>,
): Promise<Response & TypedResponse<JSONParsed<T>, S, "json">> {
  let text = serialized.get(value);
  if (text === undefined) {
    text = JSON.stringify(value);
    serialized.set(value, text);
  }
  // The body is `value`'s JSON: typed as c.json would type it.
  return answer(c, text, status, { ...headers, "content-type": "application/json" }) as Promise<Response> as Promise<
    Response & TypedResponse<JSONParsed<T>, S, "json">
  >;
}
