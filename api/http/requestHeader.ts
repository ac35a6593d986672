import type { IncomingMessage } from "node:http";
import type { Context } from "hono";

/** The Node request each request our listener hands the app was made from (`c.req.raw` → its IncomingMessage). */
const nodeRequests = new WeakMap<Request, IncomingMessage>();

/** Our Node listener made `request` from `incoming`: `requestHeader` may read its headers from Node's parse. */
export function rememberNodeRequest(request: Request, incoming: IncomingMessage): void {
  nodeRequests.set(request, incoming);
}

/**
 * A request header as the Fetch API reads it (repeated headers joined with ", "), by its lowercase
 * name. For a request our Node listener made, it is read from Node's own parse: `c.req.header` would
 * first build the request's WHATWG `Headers`, about 6 µs of the price route's 110 µs per call under
 * load (docs/operations.md#the-market-route). Any other request (an MCP tool call's, `app.request` in
 * tests) is read through Hono.
 */
export function requestHeader(c: Context, name: string): string | undefined {
  const incoming = nodeRequests.get(c.req.raw);
  if (!incoming) return c.req.header(name);
  return incoming.headersDistinct[name]?.join(", ");
}
