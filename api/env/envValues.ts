import { BlockList, isIP } from "node:net";
import { zeroAddress } from "viem";
import { createSiweMessage } from "viem/siwe";
import { z } from "zod";
import { commaList } from "../../src/config/indexerEnv";

// One zod parser per kind of environment value; EnvSchema composes them.

export const urlList = commaList.pipe(z.array(z.string().url()));

export const booleanFlag = z.enum(["true", "false", "1", "0"]).transform((v) => v === "true" || v === "1");

/** An http(s) origin: scheme, host and optional port, no path. */
export const origin = z
  .string()
  // abort: the refinements below parse the URL (new URL throws on anything else).
  .url({ abort: true })
  .refine(
    (u) => /^https?:$/.test(new URL(u).protocol) && new URL(u).pathname === "/" && !new URL(u).search,
    "must be an http(s) origin such as https://api.example.com",
  )
  .refine((u) => isSiweDomain(new URL(u).host), "its host must be a domain name or IPv4 address (challenges name it as an EIP-4361 domain)")
  .transform((u) => new URL(u).origin);

/** Whether a Sign-In with Ethereum message accepts `host` as its domain (a dotted name, localhost or IPv4, with a port). */
export function isSiweDomain(host: string): boolean {
  try {
    createSiweMessage({ domain: host, uri: `http://${host}`, address: zeroAddress, version: "1", chainId: 1, nonce: "validate0origin" });
    return true;
  } catch {
    return false;
  }
}

/** The default public origin: http://HOST:PORT, or localhost when HOST is not a name a challenge can carry (`::`). */
export function defaultOrigin(host: string, port: number): string {
  return `http://${isSiweDomain(`${host}:${port}`) ? host : "localhost"}:${port}`;
}

/** `203.0.113.7, 10.0.0.0/8, 2001:db8::/32`: IP addresses and CIDR blocks, comma-separated. */
export const ipBlockList = commaList.pipe(
  z.array(z.string().refine((e) => parseIpBlock(e) !== undefined, "each must be an IP address or a CIDR block such as 10.0.0.0/8")),
);

const loopback = new BlockList();
loopback.addSubnet("127.0.0.0", 8, "ipv4");
loopback.addAddress("::1", "ipv6");

/** Whether `host` (HOST) is a loopback interface: `localhost`, 127.0.0.0/8 or ::1 (`::ffff:127.0.0.1` too). */
export function isLoopbackHost(host: string): boolean {
  const version = isIP(host);
  return version === 0 ? host === "localhost" : loopback.check(host, version === 4 ? "ipv4" : "ipv6");
}

export const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/, "must be a 0x-prefixed 20-byte hex address");

/** A 0x-prefixed 32-byte hex private key (a gas or signing key). */
export const privateKey = z
  .string()
  .regex(/^0x[0-9a-fA-F]{64}$/, "must be a 0x-prefixed 32-byte hex private key")
  .transform((s) => s as `0x${string}`);

export const positiveCount = z.coerce.number().int().min(1);

/** The key tiers (api/keys/planCatalogue.ts's `Tier`; the indexer's imports keep that module out of here). */
export const KeyTier = z.enum(["FREE", "STARTER", "GROWTH", "PRO"]);

/** `PRO=600000, FREE=60` as {PRO: 600000, FREE: 60}: requests per minute by tier. */
export const tierRates = commaList
  .transform((entries) => entries.map((e) => e.split("=")))
  .pipe(
    z.array(
      z.tuple(
        [
          KeyTier,
          z
            .string()
            .regex(/^[1-9]\d*$/)
            .transform(Number),
        ],
        { message: "expected TIER=REQUESTS_PER_MINUTE" },
      ),
    ),
  )
  .transform((entries) => Object.fromEntries(entries) as Partial<Record<z.infer<typeof KeyTier>, number>>);

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
