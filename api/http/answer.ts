import type { Context, MiddlewareHandler } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";

/**
 * What the middleware of one request adds to its answer: headers in a plain record (names lowercase),
 * and at most one step to run once the handler's answer is ready, before it is built (the credit
 * meter's charge). Hono's `c.header` keeps headers in an undici `Headers` that Node's writeHead then
 * needs copied out again, and a header set on a built answer (`c.res.headers.set`) turns its plain
 * record into one: together about 10 µs of the price route's answer (docs/operations.md#the-market-route).
 */
type AnswerState = {
  headers: Record<string, string>;
  /** Runs the step at most once, with the answer's status; a Response replaces the answer. */
  settle?: (status: number) => Promise<Response | undefined>;
  /** The last answer `buildAnswer` made, which has all of `headers`. */
  built?: Response;
};

const stateKey = Symbol("answer");

type WithAnswer = Context & { [stateKey]?: AnswerState };

function stateOf(c: Context): AnswerState {
  const context = c as WithAnswer;
  let state = context[stateKey];
  if (state === undefined) {
    state = { headers: {} };
    context[stateKey] = state;
  }
  return state;
}

/** Adds (or replaces) a header of the request's answer, whatever builds it. */
export function answerHeader(c: Context, name: string, value: string): void {
  stateOf(c).headers[name.toLowerCase()] = value;
}

/**
 * Has `step` run once the request's answer is ready, with its status, before it is built: by `answer`,
 * or else by the returned function, which the caller runs on `c.res` after the handler (a second run
 * does nothing). A Response the step returns is answered instead. One step a request: the credit
 * meter's (a route has one meter).
 */
export function beforeAnswer(c: Context, step: (status: number) => Promise<Response | undefined>) {
  let ran = false;
  const settle = async (status: number) => {
    if (ran) return undefined;
    ran = true;
    return step(status);
  };
  stateOf(c).settle = settle;
  return settle;
}

/**
 * The answer `body` with `status`, its headers those the middleware added (`answerHeader`) and
 * `headers` (these win), after the step of `beforeAnswer`: one plain record all the way to Node.
 */
export async function answer(c: Context, body: string, status: ContentfulStatusCode, headers: Record<string, string>): Promise<Response> {
  const replaced = await stateOf(c).settle?.(status);
  return replaced ?? buildAnswer(c, body, status, headers);
}

/**
 * `answer` without the step of `beforeAnswer`: for a refusal, which nothing is charged for. Its
 * headers are a record of its own (Node's writer adds Content-Length to it): the middleware's record
 * stays theirs, for any answer built after it.
 */
export function buildAnswer(c: Context, body: string, status: ContentfulStatusCode, headers: Record<string, string>): Response {
  const state = stateOf(c);
  const all = { ...state.headers };
  for (const name in headers) all[name.toLowerCase()] = headers[name] as string;
  state.built = new Response(body, { status, headers: all });
  return state.built;
}

/**
 * The outermost middleware: an answer built otherwise than by `answer` (c.json, a stream) is made
 * anew with the headers the middleware added, where it does not set them itself. Anew, not changed in
 * place: @hono/node-server's Response makes its body's Response, and Hono a HEAD answer, from the
 * headers it was built with, so a header set on it afterwards could be lost. Its body is read whole
 * (a sent length, and @hono/node-server's direct write), unless it is an event stream.
 */
export function answerHeaders(): MiddlewareHandler {
  return async function answerHeaders(c, next) {
    await next();
    const state = (c as WithAnswer)[stateKey];
    if (state === undefined || c.res === state.built) return;
    const other = c.res;
    const missing = Object.keys(state.headers).filter((name) => !other.headers.has(name));
    if (missing.length === 0) return;
    const headers = new Headers(other.headers);
    for (const name of missing) headers.set(name, state.headers[name] as string);
    const streamed = other.body === null || headers.get("content-type")?.startsWith("text/event-stream");
    const body = streamed ? other.body : new Uint8Array(await other.arrayBuffer());
    c.res = new Response(body, { status: other.status, statusText: other.statusText, headers });
  };
}
