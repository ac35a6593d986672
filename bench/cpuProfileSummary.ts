/**
 * Where a V8 CPU profile (`node --cpu-prof`, e.g. from `BENCH_CPU_PROF_DIR=... npm run bench:market`)
 * spent its time: self time grouped by owner (an npm package, a folder of this repository, Node's
 * internals, PGlite's WebAssembly, the garbage collector, idle), the busiest functions, and the
 * repository's own functions by inclusive time (their synchronous work and what it calls: an async
 * function counts from each resumption, not while it awaits).
 * Usage: `npx tsx bench/cpuProfileSummary.ts FILE.cpuprofile [TOP]`. Last line: one JSON object of the
 * busy (non-idle) share of each owner.
 */

import { readFileSync } from "node:fs";
import { resolve } from "node:path";

type ProfileNode = { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] };
type Profile = { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };

const [file, topArg] = process.argv.slice(2);
if (!file) throw new Error("usage: tsx bench/cpuProfileSummary.ts FILE.cpuprofile [TOP]");
const top = Number(topArg ?? 15);
const root = resolve(import.meta.dirname, "..");
const profile = JSON.parse(readFileSync(file, "utf8")) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));

/** Who a frame belongs to. */
function ownerOf({ functionName, url }: ProfileNode["callFrame"]): string {
  if (functionName === "(idle)") return "(idle)";
  if (functionName === "(garbage collector)") return "(garbage collector)";
  if (functionName === "(program)") return "(program)";
  if (url.startsWith("wasm://")) return "pglite (wasm)";
  if (url.startsWith("node:")) return `node:${url.slice(5).split("/")[1] ?? url.slice(5)}`;
  const modules = url.lastIndexOf("node_modules/");
  if (modules >= 0) {
    const [scope, name] = url.slice(modules + 13).split("/");
    return scope?.startsWith("@") ? `${scope}/${name}` : (scope ?? url);
  }
  const path = url.replace(/^file:\/\//, "");
  if (path.startsWith(root)) {
    const parts = path.slice(root.length + 1).split("/");
    return parts.length > 2 ? `${parts[0]}/${parts[1]}` : (parts[0] ?? path);
  }
  return url === "" ? "(native)" : url;
}

const parentOf = new Map<number, number>();
for (const n of profile.nodes) for (const child of n.children ?? []) parentOf.set(child, n.id);
const ownCode = (n: ProfileNode) => n.callFrame.url.replace(/^file:\/\//, "").startsWith(root) && !n.callFrame.url.includes("node_modules");
const inclusiveTime = new Map<string, number>();
const ownerTime = new Map<string, number>();
const functionTime = new Map<string, number>();
let total = 0;
profile.samples.forEach((id, i) => {
  const node = byId.get(id);
  const dt = profile.timeDeltas[i] ?? 0;
  if (!node) return;
  total += dt;
  const owner = ownerOf(node.callFrame);
  ownerTime.set(owner, (ownerTime.get(owner) ?? 0) + dt);
  const fn = `${node.callFrame.functionName || "(anonymous)"} ${owner}:${node.callFrame.lineNumber + 1}`;
  functionTime.set(fn, (functionTime.get(fn) ?? 0) + dt);
  const onStack = new Set<string>();
  for (let at: ProfileNode | undefined = node; at; at = byId.get(parentOf.get(at.id) ?? -1)) {
    if (ownCode(at)) onStack.add(`${at.callFrame.functionName || "(anonymous)"} ${ownerOf(at.callFrame)}:${at.callFrame.lineNumber + 1}`);
  }
  for (const name of onStack) inclusiveTime.set(name, (inclusiveTime.get(name) ?? 0) + dt);
});

const idle = ownerTime.get("(idle)") ?? 0;
const busy = total - idle;
const sorted = (m: Map<string, number>) => [...m.entries()].sort((a, b) => b[1] - a[1]);
console.log(`${file}: ${(total / 1e6).toFixed(1)} s sampled, ${(busy / 1e6).toFixed(1)} s busy`);
for (const [owner, t] of sorted(ownerTime).slice(0, top)) {
  console.log(`${((100 * t) / total).toFixed(1).padStart(5)}%  ${owner}`);
}
console.log("busiest functions (self time):");
for (const [fn, t] of sorted(functionTime).slice(0, top)) console.log(`${((100 * t) / total).toFixed(1).padStart(5)}%  ${fn}`);
console.log("this repository's functions (inclusive time):");
for (const [fn, t] of sorted(inclusiveTime).slice(0, top)) console.log(`${((100 * t) / total).toFixed(1).padStart(5)}%  ${fn}`);
console.log(
  JSON.stringify({
    busySeconds: Number((busy / 1e6).toFixed(1)),
    busyShare: Object.fromEntries(
      sorted(ownerTime)
        .filter(([owner]) => owner !== "(idle)")
        .slice(0, top)
        .map(([owner, t]) => [owner, Number((t / busy).toFixed(3))]),
    ),
  }),
);
