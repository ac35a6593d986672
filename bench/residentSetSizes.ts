import { existsSync, readFileSync } from "node:fs";

/** Resident set sizes in MB (one decimal) by process name, with their `total`. */
export type ProcessSizes = Record<string, number>;

/**
 * The resident set (VmRSS) of each named process, from /proc, in MB, and their sum as `total`; a process
 * that exited since its pid was read is left out.
 */
export function residentSetSizes(pids: Record<string, number>): ProcessSizes {
  const sizes: ProcessSizes = {};
  let total = 0;
  for (const [name, pid] of Object.entries(pids)) {
    if (!existsSync(`/proc/${pid}/status`)) continue;
    const kb = Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? Number.NaN);
    sizes[name] = Math.round(kb / 102.4) / 10;
    total += kb;
  }
  sizes.total = Math.round(total / 102.4) / 10;
  return sizes;
}

/** The parent of process `pid` (from /proc/<pid>/stat). */
export function parentPid(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
}
