import { createHmac, randomBytes } from "node:crypto";
import { getConnInfo } from "@hono/node-server/conninfo";
import type { Context } from "hono";
import { requestHeader } from "../http/requestHeader";
import { clientAddressKey } from "./clientAddressKey";
import { createProxyTrust, type IsTrustedProxy } from "./createProxyTrust";

export type ClientBucketParameters = {
  /** CLIENT_IP_HEADER: where a trusted proxy writes the client address (or a chain of hops, X-Forwarded-For style). */
  ipHeader?: string;
  /** TRUSTED_PROXIES: the peers whose `ipHeader` is believed (IPs and CIDRs); default none. */
  trustedProxies?: readonly string[];
};

/**
 * The per-address rate-limit bucket of a request: an HMAC, under a key that lives only in this
 * process's memory, of the client address as `clientAddressKey` groups it (IPv4 alone, IPv6 by its /64).
 * The client address is the socket's peer, unless that peer is a trusted proxy: then `ipHeader` names
 * it, read from the right (the hop nearest us) to the first hop that is not a trusted proxy. A header
 * from any other peer is ignored, so a client connecting directly cannot pick its own bucket. The
 * address itself is never stored or logged. Without a peer (a request not served by a node socket)
 * every such request shares one bucket.
 */
export function clientBucket({ ipHeader, trustedProxies = [] }: ClientBucketParameters = {}): (c: Context) => string {
  const salt = randomBytes(32);
  const isTrustedProxy = createProxyTrust(trustedProxies);
  return (c) => {
    const peer = remoteAddress(c);
    const forwarded = ipHeader && peer && isTrustedProxy(peer) ? requestHeader(c, ipHeader) : undefined;
    const address = (forwarded && forwardedClient(forwarded, isTrustedProxy)) || peer;
    return address ? createHmac("sha256", salt).update(clientAddressKey(address)).digest("hex").slice(0, 32) : "all-clients";
  };
}

/**
 * The client a chain of hops names (`client, proxy1, proxy2`): from the right, the first hop that is not a
 * trusted proxy (hops left of it are the client's to write); every hop trusted: the leftmost.
 */
function forwardedClient(chain: string, isTrustedProxy: IsTrustedProxy): string | undefined {
  const hops = chain
    .split(",")
    .map((hop) => hop.trim())
    .filter((hop) => hop.length > 0);
  return hops.findLast((hop) => !isTrustedProxy(hop)) ?? hops[0];
}

function remoteAddress(c: Context): string | undefined {
  try {
    return getConnInfo(c).remote.address;
  } catch {
    return undefined;
  }
}
