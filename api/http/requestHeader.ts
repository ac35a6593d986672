import type { IncomingMessage } from "node:http";
import type { Context } from "hono";

/**
 * Where our listener leaves, on each request it hands the app, the Node request it was made from. A
 * registered symbol: the listener outlives a reload of this module in `ponder dev`. A property, not a
 * WeakMap: a WeakMap entry per request cost about 0.5 µs and the collector's ephemeron work.
 */
const nodeRequestKey = Symbol.for("svc.nodeRequest");

type MadeByOurListener = Request & { [nodeRequestKey]?: IncomingMessage };

/** Our Node listener made `request` from `incoming`: `requestHeader` may read its headers from Node's parse. */
export function rememberNodeRequest(request: Request, incoming: IncomingMessage): void {
  (request as MadeByOurListener)[nodeRequestKey] = incoming;
}

/** The Node request our listener made the request of `c` from; undefined for any other request. */
export function nodeRequestOf(c: Context): IncomingMessage | undefined {
  return (c.req.raw as MadeByOurListener)[nodeRequestKey];
}

/**
 * A request header as the Fetch API reads it (repeated headers joined with ", "; the name in any case).
 * For a request our Node listener made, it is read from Node's raw header lines: `c.req.header` would
 * first build the request's WHATWG `Headers`, 6-10 µs of the price route's 125 µs per call under load
 * (docs/operations.md#the-market-route), and Node's `headers` keeps only the first of some repeated
 * headers (Authorization among them). Any other request (an MCP tool call's, `app.request` in tests)
 * is read through Hono.
 */
export function requestHeader(c: Context, name: string): string | undefined {
  const incoming = nodeRequestOf(c);
  if (!incoming) return c.req.header(name);
  const wanted = name.toLowerCase();
  const lines = incoming.rawHeaders;
  let value: string | undefined;
  for (let i = 0; i < lines.length; i += 2) {
    const line = lines[i] as string;
    if (line.length !== wanted.length || line.toLowerCase() !== wanted) continue;
    value = value === undefined ? lines[i + 1] : `${value}, ${lines[i + 1]}`;
  }
  return value;
}
