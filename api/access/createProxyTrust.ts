import { BlockList, isIP } from "node:net";
import { parseIpBlock } from "../env/envValues";
import { bareAddress } from "./bareAddress";

/** Whether an address (a socket's peer, or a hop a proxy wrote) is one of the trusted proxies. */
export type IsTrustedProxy = (address: string) => boolean;

/**
 * The matcher of TRUSTED_PROXIES' entries (`203.0.113.7`, `10.0.0.0/8`, `2001:db8::/32`, each already
 * validated by the config): an IPv4-mapped peer (`::ffff:10.1.2.3`) matches its IPv4 entry, and anything
 * that is no IP address matches nothing.
 */
export function createProxyTrust(entries: readonly string[]): IsTrustedProxy {
  const list = new BlockList();
  for (const entry of entries) {
    const block = parseIpBlock(entry);
    if (block) list.addSubnet(block.ip, block.prefix, block.family);
  }
  return (address) => {
    const bare = bareAddress(address);
    const version = isIP(bare);
    return version !== 0 && list.check(bare, version === 4 ? "ipv4" : "ipv6");
  };
}
