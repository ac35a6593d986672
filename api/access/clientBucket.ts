import { createHmac, randomBytes } from "node:crypto";
import { getConnInfo } from "@hono/node-server/conninfo";
import type { Context } from "hono";
import { requestHeader } from "../http/requestHeader";
import { clientAddressKey } from "./clientAddressKey";

/**
 * The per-address rate-limit bucket of a request: an HMAC, under a key that lives only in this
 * process's memory, of the client address (from `ipHeader`'s last entry when a trusted load balancer
 * sets it, else the socket's remote address) as `clientAddressKey` groups it: IPv4 alone, IPv6 by its
 * /64. The address itself is never stored or logged. Without any address (a request not served by a
 * node socket) every such request shares one bucket.
 */
export function clientBucket({ ipHeader }: { ipHeader?: string } = {}): (c: Context) => string {
  const salt = randomBytes(32);
  return (c) => {
    const address = (ipHeader ? requestHeader(c, ipHeader)?.split(",").at(-1)?.trim() : undefined) || remoteAddress(c);
    return address ? createHmac("sha256", salt).update(clientAddressKey(address)).digest("hex").slice(0, 32) : "all-clients";
  };
}

function remoteAddress(c: Context): string | undefined {
  try {
    return getConnInfo(c).remote.address;
  } catch {
    return undefined;
  }
}
