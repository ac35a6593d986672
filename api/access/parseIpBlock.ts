import { isIP } from "node:net";

/** One TRUSTED_PROXIES entry: an address and its prefix length (a bare address: the whole address). */
export type IpBlock = { ip: string; prefix: number; family: "ipv4" | "ipv6" };

/** `203.0.113.7`, `10.0.0.0/8` or `2001:db8::/32` as an IpBlock; anything else (a bad prefix included) undefined. */
export function parseIpBlock(entry: string): IpBlock | undefined {
  const [ip = "", prefix, ...rest] = entry.split("/");
  const version = isIP(ip);
  if (version === 0 || rest.length > 0) return undefined;
  const family = version === 4 ? "ipv4" : "ipv6";
  const widest = version === 4 ? 32 : 128;
  if (prefix === undefined) return { ip, prefix: widest, family };
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= widest ? { ip, prefix: Number(prefix), family } : undefined;
}
