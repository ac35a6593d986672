import { existsSync, readFileSync } from "node:fs";

/**
 * The local addresses TCP sockets listen on at `port` in this network namespace, from Linux's
 * /proc/net/tcp and tcp6 (e.g. `["127.0.0.1"]`, `["0.0.0.0"]`, `["::"]`); undefined off Linux.
 */
export function listeningAddresses(port: number): string[] | undefined {
  if (!existsSync("/proc/net/tcp")) return undefined;
  const addresses: string[] = [];
  for (const file of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    if (!existsSync(file)) continue;
    for (const line of readFileSync(file, "utf8").split("\n").slice(1)) {
      const [, local, , state] = line.trim().split(/\s+/);
      if (state !== "0A" || !local) continue; // 0A: LISTEN
      const [hex, portHex] = local.split(":");
      if (hex && portHex && Number.parseInt(portHex, 16) === port) addresses.push(decodeAddress(hex));
    }
  }
  return addresses;
}

/** /proc/net prints addresses as little-endian 32-bit words in hex. */
function decodeAddress(hex: string): string {
  const words = hex.match(/.{8}/g) ?? [];
  const bytes = words.flatMap((w) => (w.match(/../g) ?? []).reverse().map((b) => Number.parseInt(b, 16)));
  if (bytes.length === 4) return bytes.join(".");
  const groups = Array.from({ length: 8 }, (_, i) => (((bytes[2 * i] ?? 0) << 8) | (bytes[2 * i + 1] ?? 0)).toString(16));
  // The WHATWG URL parser prints IPv6 in its canonical, compressed form.
  return new URL(`http://[${groups.join(":")}]/`).hostname.slice(1, -1);
}
