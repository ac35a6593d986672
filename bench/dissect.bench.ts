/**
 * Dissection speed and selector accuracy on the whole corpus (devnet fixtures + npm artifacts), against
 * whatsabi and evmole on the same bytes in the same run. Plain script: `npm run bench:dissect`.
 * BENCH_WARMUP (20) untimed and BENCH_ROUNDS (40) timed rounds; tiny (the smoke test): BENCH_WARMUP=0 BENCH_ROUNDS=1.
 * Prints per-engine totals, then as its last line one JSON object with the headline figures,
 * `dissectFigures` in bench/benchFigures.ts.
 */
import { BytecodeIter, selectorsFromBytecode } from "@shazow/whatsabi";
import { contractInfo } from "evmole";
import { decodeBytecode } from "../api/capability/decodeBytecode";
import { dissectBytecode } from "../api/capability/dissectBytecode";
import { extractSelectors } from "../api/capability/extractSelectors";
import { knownProxySlots } from "../api/capability/knownProxySlots";
import { type CorpusContract, loadFixtureCorpus, loadNpmCorpus, scoreSelectors } from "../test/capability/corpus";
import { dissectFigures, printFigures } from "./benchFigures";

const warmupRounds = Number(process.env.BENCH_WARMUP ?? 20);
const rounds = Number(process.env.BENCH_ROUNDS ?? 40);

type Engine = { name: string; run: (code: string) => unknown };

const slotHex = new Set<string>(knownProxySlots.map((s) => s.slot.slice(2)));

/** What a whatsabi user writes to get our output: its selectors plus an opcode pass with its iterator. */
function whatsabiDissect(code: string) {
  const selectors = selectorsFromBytecode(code);
  const counts = { f0: 0, f2: 0, f4: 0, f5: 0, ff: 0, slots: 0 };
  const iter = new BytecodeIter(code);
  while (iter.hasMore()) {
    const op = iter.next();
    if (op === 0xf4) counts.f4++;
    else if (op === 0xff) counts.ff++;
    else if (op === 0xf2) counts.f2++;
    else if (op === 0xf0) counts.f0++;
    else if (op === 0xf5) counts.f5++;
    else if (op === 0x7f && slotHex.has(Buffer.from(iter.value()).toString("hex"))) counts.slots++;
  }
  return { selectors, counts };
}

function evmoleSelectors(code: string) {
  return contractInfo(code, { selectors: true }).functions?.map((f) => `0x${f.selector}`) ?? [];
}

const engines: Engine[] = [
  { name: "ours (dissectBytecode)", run: dissectBytecode },
  { name: "ours (extractSelectors only)", run: (code) => extractSelectors(decoded(code)) },
  { name: "whatsabi (selectors + opcode pass)", run: whatsabiDissect },
  { name: "whatsabi (selectorsFromBytecode only)", run: selectorsFromBytecode },
  { name: "evmole (selectors)", run: evmoleSelectors },
];

function decoded(code: string): Uint8Array {
  const result = decodeBytecode(code);
  if (!result.ok) throw new Error(result.reason);
  return result.bytes;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

function timeRound(engine: Engine, codes: string[]): number {
  const start = performance.now();
  for (const code of codes) engine.run(code);
  return performance.now() - start;
}

const fixtures = loadFixtureCorpus();
const npm = loadNpmCorpus();
const corpus: CorpusContract[] = [...fixtures, ...npm];
const codes = corpus.map((c) => c.deployedBytecode);
const totalBytes = codes.reduce((sum, c) => sum + (c.length - 2) / 2, 0);
console.log(
  `corpus: ${corpus.length} contracts (${fixtures.length} devnet fixtures, ${npm.length} npm artifacts), ` +
    `${(totalBytes / 1024).toFixed(0)} KiB; ${warmupRounds} warm-up + ${rounds} timed rounds, median shown`,
);

// Accuracy first (also a warm-up of every code path).
const scores = {
  ours: scoreSelectors(corpus, (c) => dissectBytecode(c.deployedBytecode).selectors),
  whatsabi: scoreSelectors(corpus, (c) => selectorsFromBytecode(c.deployedBytecode)),
  evmole: scoreSelectors(corpus, (c) => evmoleSelectors(c.deployedBytecode)),
};
for (const [name, s] of Object.entries(scores)) {
  console.log(
    `selectors ${name.padEnd(9)} recall ${s.recall.toFixed(4)} precision ${s.precision.toFixed(4)} ` +
      `(${s.truePositives}/${s.expected} expected, ${s.found} found, ${s.misses.length} contracts differ)`,
  );
}

for (let i = 0; i < warmupRounds; i++) for (const engine of engines) timeRound(engine, codes);
const samples = new Map<string, number[]>(engines.map((e) => [e.name, []]));
for (let i = 0; i < rounds; i++) {
  // rotate the order every round so no engine always runs right after another's garbage
  for (let j = 0; j < engines.length; j++) {
    const engine = engines[(i + j) % engines.length] as Engine;
    samples.get(engine.name)?.push(timeRound(engine, codes));
  }
}
const totals = new Map<string, number>([...samples].map(([name, ms]) => [name, median(ms)]));
for (const [name, ms] of totals) {
  console.log(
    `${name.padEnd(40)} ${ms.toFixed(2).padStart(9)} ms/round  ${((ms / corpus.length) * 1000).toFixed(1).padStart(8)} µs/contract` +
      `  ${((ms * 1000) / (totalBytes / 1024)).toFixed(2).padStart(7)} µs/KiB`,
  );
}

const ours = totals.get("ours (dissectBytecode)") as number;
printFigures(dissectFigures, {
  speedupVsWhatsabi: round((totals.get("whatsabi (selectors + opcode pass)") as number) / ours),
  speedupVsEvmole: round((totals.get("evmole (selectors)") as number) / ours),
  selectorRecall: round(scores.ours.recall, 4),
  selectorPrecision: round(scores.ours.precision, 4),
  contracts: corpus.length,
  ourMsPerContract: round(ours / corpus.length, 4),
});

function round(value: number, digits = 2): number {
  return Number(value.toFixed(digits));
}
