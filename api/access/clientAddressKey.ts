import { isIPv4, isIPv6 } from "node:net";
import { bareAddress } from "./bareAddress";

/**
 * What a client address's limits are keyed by: an IPv4 address as it is (also when it arrives
 * IPv4-mapped, `::ffff:198.51.100.7`), an IPv6 address by its /64 prefix (one subscriber's network:
 * its hosts pick any of 2^64 addresses), anything else unchanged. Brackets, a port and a zone are
 * dropped first.
 *
 * @example clientAddressKey("2001:DB8:1:2::9") // "2001:db8:1:2::/64"
 */
export function clientAddressKey(address: string): string {
  const bare = bareAddress(address);
  if (isIPv4(bare)) return bare;
  if (!isIPv6(bare)) return bare;
  const groups = ipv6Groups(bare);
  const mapped = groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff;
  if (mapped) return [groups[6], groups[7]].flatMap((g = 0) => [g >> 8, g & 0xff]).join(".");
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(":")}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (`::` expanded, a dotted IPv4 tail as two groups). */
function ipv6Groups(address: string): number[] {
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(address);
  const hex = dotted
    ? `${address.slice(0, dotted.index)}${((Number(dotted[1]) << 8) | Number(dotted[2])).toString(16)}:${((Number(dotted[3]) << 8) | Number(dotted[4])).toString(16)}`
    : address;
  const [head = "", tail] = hex.split("::");
  const parse = (part: string) => (part ? part.split(":").map((g) => Number.parseInt(g, 16)) : []);
  const front = parse(head);
  const back = tail === undefined ? [] : parse(tail);
  return [...front, ...new Array<number>(8 - front.length - back.length).fill(0), ...back];
}
