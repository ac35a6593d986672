import type { IncomingMessage } from "node:http";
import type { Context } from "hono";
import { onePerProcess } from "../access/onePerProcess";

/**
 * The Node request each request our listener hands the app was made from (`c.req.raw` → its
 * IncomingMessage), one map per process: the listener outlives a reload of this module in `ponder dev`.
 */
const nodeRequests = onePerProcess("nodeRequests", () => new WeakMap<Request, IncomingMessage>());

/** Our Node listener made `request` from `incoming`: `requestHeader` may read its headers from Node's parse. */
export function rememberNodeRequest(request: Request, incoming: IncomingMessage): void {
  nodeRequests.set(request, incoming);
}

/**
 * A request header as the Fetch API reads it (repeated headers joined with ", "; the name in any case).
 * For a request our Node listener made, it is read from Node's own parse: `c.req.header` would first
 * build the request's WHATWG `Headers`, 6-10 µs of the price route's 125 µs per call under load
 * (docs/operations.md#the-market-route). Any other request (an MCP tool call's, `app.request` in tests)
 * is read through Hono.
 */
export function requestHeader(c: Context, name: string): string | undefined {
  const incoming = nodeRequests.get(c.req.raw);
  if (!incoming) return c.req.header(name);
  return incoming.headersDistinct[name.toLowerCase()]?.join(", ");
}
