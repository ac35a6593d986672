import { existsSync, readdirSync, readFileSync, readlinkSync } from "node:fs";

/** Linux's clock ticks per second for /proc/<pid>/stat times (USER_HZ, 100 on every mainstream build). */
const ticksPerSecond = 100;

/** The id of the process listening on TCP `port` (from /proc/net/tcp{,6} and /proc/<pid>/fd); undefined off Linux. */
export function pidListeningOn(port: number): number | undefined {
  if (!existsSync("/proc/net/tcp")) return undefined;
  const inodes = new Set<string>();
  for (const file of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    if (!existsSync(file)) continue;
    for (const line of readFileSync(file, "utf8").split("\n").slice(1)) {
      const fields = line.trim().split(/\s+/);
      const [, local, , state] = fields;
      if (state === "0A" && local && Number.parseInt(local.split(":")[1] ?? "", 16) === port && fields[9]) inodes.add(fields[9]);
    }
  }
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      for (const fd of readdirSync(`/proc/${entry}/fd`)) {
        const target = readlinkSync(`/proc/${entry}/fd/${fd}`);
        if (target.startsWith("socket:[") && inodes.has(target.slice(8, -1))) return Number(entry);
      }
    } catch {
      // Another user's process, or one that just exited.
    }
  }
  return undefined;
}

/** CPU seconds (user + system) `pid` has used so far. */
export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond;
}
