import fc from "fast-check";
import { beforeAll, describe, expect, test } from "vitest";
import { Dissection } from "../../api/capability/Dissection";
import { disassemble } from "../../api/capability/disassemble";
import { dissectBytecode } from "../../api/capability/dissectBytecode";
import { extractSelectors } from "../../api/capability/extractSelectors";
import { InvalidBytecodeError } from "../../api/capability/InvalidBytecodeError";
import { knownProxySlots } from "../../api/capability/knownProxySlots";
import { privilegedSelectors } from "../../api/capability/privilegedSelectors";
import { anyString, hexDigits } from "./arbitraries";

/**
 * Property tests of the bytecode dissector (`dissectBytecode`, `disassemble`, `extractSelectors`) on the
 * code a caller can make us read: any bytes up to Base's contract size limit. It never throws, its answer
 * is bounded by the input, and the slowest case costs a bounded multiple of a plain input of the same
 * length, measured in the same run (a ratio, never milliseconds). Cases per property are stated at each
 * `numRuns`; its tests take 3-4 s on an idle 2-core machine, 8-12 s with two CPU hogs and the other
 * property files beside them.
 */

/** Base's (EIP-170) contract size limit: the most runtime code an address can hold. */
const maxCodeBytes = 24_576;

/**
 * The bound on selectors. A selector is a constant the dispatcher's selector is compared with, so each
 * one needs a PUSH of its own (2 bytes at least), and a comparison and a JUMPI walked for it (each pc is
 * walked at most 4 times): the walk's own limits give about 0.4·n + 1. Real dispatchers spend 10 bytes or
 * more per selector (the densest one below: 10); n/4 + 1 is the bound this test claims.
 */
const maxSelectors = (n: number) => Math.floor(n / 4) + 1;
/**
 * The bound on the answer's JSON: 13 bytes per selector (`"0x12345678",`), so at most 3.25 per input
 * byte, plus the fixed parts: the disclaimer, one capability with its evidence per privileged selector
 * found (at most 71), five opcode patterns and the proxy-slot writes. The example with every
 * capability at once is 16.3 KB for 994 bytes of code.
 */
const maxJsonBytes = (n: number) => 4 * n + 20_480;

const hex = (h: string) => Array.from(Buffer.from(h.replace(/^0x/, ""), "hex"));
const push2 = (v: number) => [0x61, (v >> 8) & 0xff, v & 0xff];
/** solc's prologue: calldatasize() < 4 jumps away (to `fallback`), then the selector is calldataload(0) >> 224. */
const prologue = (fallback: number) => [0x60, 0x04, 0x36, 0x10, ...push2(fallback), 0x57, 0x5f, 0x35, 0x60, 0xe0, 0x1c];

/** A dispatcher comparing every privileged selector, then every proxy-slot write and tracked opcode: every capability at once. */
function everyCapability(): Uint8Array {
  const body = 13 + privilegedSelectors.length * 11;
  const out = prologue(body);
  for (const p of privilegedSelectors) out.push(0x80, 0x63, ...hex(p.selectorHex), 0x14, ...push2(body), 0x57);
  out.push(0x5b);
  for (const s of knownProxySlots) out.push(0x7f, ...hex(s.slot), 0x55);
  out.push(0xf4, 0xff, 0xf0, 0xf5, 0xf2, 0x00);
  return Uint8Array.from(out);
}

/** The densest plain dispatcher: `DUP1 PUSH2 c EQ PUSH2 body JUMPI` for c = 1, 2, 3... up to the size limit. */
function denseDispatcher(): Uint8Array {
  const body = maxCodeBytes - 2;
  const out = prologue(body);
  for (let c = 1; out.length + 10 <= body; c++) out.push(0x80, ...push2(c), 0x14, ...push2(body), 0x57);
  while (out.length < body) out.push(0x00);
  out.push(0x5b, 0x00);
  return Uint8Array.from(out);
}

/**
 * The costliest shape we know for the selector walk: a stack filled first, then a chain of JUMPIs on an
 * unknown condition, each taking a copy of the stack top into a branch that re-walks the chain (each pc
 * at most 4 times). Linear in the code, with the largest constant (the 64-entry branch copy).
 */
function branchChain(): Uint8Array {
  const out: number[] = Array(1000).fill(0x5f);
  while (out.length < maxCodeBytes) out.push(0x5b, 0x34, ...push2(1000), 0x57);
  return Uint8Array.from(out.slice(0, maxCodeBytes));
}

/** Fragments of dispatchers and of the patterns the dissector looks for, with jumps resolved to real JUMPDESTs. */
type Fragment = readonly number[] | { compare: readonly number[]; dest: number; jump: number };
const selectorBytes = fc.oneof(
  fc.constantFrom(...privilegedSelectors.map((p) => hex(p.selectorHex))),
  fc.uint8Array({ minLength: 4, maxLength: 4 }).map((a) => [...a]),
);
const fragment: fc.Arbitrary<Fragment> = fc.oneof(
  { weight: 3, arbitrary: fc.constant([0x60, 0x04, 0x36, 0x10]) }, // calldatasize() < 4
  { weight: 3, arbitrary: fc.constant([0x5f, 0x35, 0x60, 0xe0, 0x1c]) }, // calldataload(0) >> 224
  // old solc: calldataload(0) / 2^224 & 0xffffffff
  {
    weight: 1,
    arbitrary: fc.constant([0x60, 0x00, 0x35, 0x7c, 0x01, ...Array(28).fill(0), 0x90, 0x04, 0x63, 0xff, 0xff, 0xff, 0xff, 0x16]),
  },
  {
    weight: 20, // DUPn PUSH4 selector EQ|SUB|XOR|EQ ISZERO, PUSH2 dest, JUMPI
    arbitrary: fc
      .tuple(fc.constantFrom(0x80, 0x81, 0x82), selectorBytes, fc.constantFrom([0x14], [0x03], [0x18], [0x14, 0x15]), fc.nat())
      .map(([dup, s, cmp, dest]) => ({ compare: [dup, 0x63, ...s, ...cmp], dest, jump: 0x57 })),
  },
  { weight: 6, arbitrary: fc.tuple(fc.nat(), fc.constantFrom(0x56, 0x57)).map(([dest, jump]) => ({ compare: [], dest, jump })) },
  { weight: 4, arbitrary: fc.constant([0x5b]) }, // JUMPDEST
  { weight: 2, arbitrary: fc.constantFrom([0x80], [0x8f], [0x90], [0x9f], [0x34], [0x50], [0x5f]) }, // stack traffic
  { weight: 1, arbitrary: fc.constantFrom(...knownProxySlots.map((s) => [0x7f, ...hex(s.slot), 0x55])) },
  { weight: 1, arbitrary: fc.constantFrom([0xf4], [0xff], [0xf0], [0xf5], [0xf2], [0x00], [0xf3], [0xfd], [0xfe]) },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 255 }).map((b) => [b]) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 64 }).map((a) => [...a]) },
);
const structuredCode = fc.array(fragment, { maxLength: 4000, size: "max" }).map((fragments) => {
  const out: number[] = [];
  const jumps: { at: number; dest: number }[] = [];
  for (const f of fragments) {
    if (!("dest" in f)) out.push(...f);
    else {
      out.push(...f.compare, 0x61);
      jumps.push({ at: out.length, dest: f.dest });
      out.push(0, 0, f.jump);
    }
  }
  const jumpdests = out.flatMap((b, i) => (b === 0x5b ? [i] : []));
  for (const j of jumps) {
    const d = jumpdests.length > 0 ? (jumpdests[j.dest % jumpdests.length] as number) : j.dest & 0xffff;
    out[j.at] = d >> 8;
    out[j.at + 1] = d & 0xff;
  }
  return Uint8Array.from(out.slice(0, maxCodeBytes));
});
const randomCode = fc.uint8Array({ maxLength: maxCodeBytes, size: "max" });

/**
 * The CPU time of `f` in ms (this process's user and system time, `process.cpuUsage`), which time spent
 * preempted by other processes does not inflate: on a busy machine a long call is preempted more often
 * than a short one, and wall-clock ratios drift with the load.
 */
function cpuMs(f: () => void): number {
  const start = process.cpuUsage();
  f();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}
/** The least of `reps` CPU times of `f`, in ms. */
function fastest(f: () => void, reps: number): number {
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < reps; i++) best = Math.min(best, cpuMs(f));
  return best;
}
/** The median of `reps` CPU times of `f`, in ms. */
function median(f: () => void, reps: number): number {
  const times = Array.from({ length: reps }, () => cpuMs(f)).sort((a, b) => a - b);
  return times[Math.floor(reps / 2)] as number;
}
/** A plain input of `n` bytes: all JUMPDEST, one instruction per byte that every pass walks once. */
const plain = (n: number) => new Uint8Array(n).fill(0x5b);

/** The slowest cases of the runs so far (five), each with a same-length plain input's time measured right after it. */
const slowest: { code: Uint8Array; ms: number; plainMs: number }[] = [];

/** Checks one input: nothing throws, the answers are bounded; and times it against a plain input of its length. */
function checkBounded(code: Uint8Array) {
  const d = dissectBytecode(code);
  expect(d.bytecodeSizeBytes).toBe(code.length);
  expect(d.selectors.length).toBeLessThanOrEqual(maxSelectors(code.length));
  expect(JSON.stringify(d).length).toBeLessThanOrEqual(maxJsonBytes(code.length));
  expect(Dissection.safeParse(d).success).toBe(true);

  const disassembly = disassemble(code);
  expect(disassembly.scanEnd).toBeLessThanOrEqual(code.length);
  expect(disassembly.executableEnd).toBeLessThanOrEqual(disassembly.scanEnd);
  expect(disassembly.instructionCount).toBeLessThanOrEqual(disassembly.scanEnd);
  for (const pcs of Object.values(disassembly.trackedOpcodePcs)) expect(pcs.length).toBeLessThanOrEqual(64);
  const inline = extractSelectors(disassembly, { includeInlineChecks: true });
  expect(inline.length).toBeLessThanOrEqual(maxSelectors(code.length));
  for (const s of d.selectors) expect(inline).toContain(s);

  const ms = fastest(() => dissectBytecode(code), 3);
  if (slowest.length < 5 || ms > (slowest[4]?.ms ?? 0)) {
    const same = plain(code.length);
    slowest.push({ code, ms, plainMs: fastest(() => dissectBytecode(same), 3) });
    slowest.sort((a, b) => b.ms - a.ms).splice(5);
  }
}

describe("the bytecode dissector on any code up to 24,576 bytes", () => {
  // Warm up (JIT), so that the slowest case is the input's cost, not the first calls' compilation.
  beforeAll(() => {
    const noise = Uint8Array.from({ length: maxCodeBytes }, (_, i) => (i * 2_654_435_761) >>> 24);
    for (let i = 0; i < 5; i++) for (const code of [branchChain(), denseDispatcher(), noise, plain(maxCodeBytes)]) dissectBytecode(code);
  });

  test("behavior: random bytes never throw; selectors ≤ n/4 + 1, JSON ≤ 4n + 20 KiB, the answer fits its schema (200 cases)", () => {
    fc.assert(fc.property(randomCode, checkBounded), { numRuns: 200 });
  });

  test("behavior: dispatcher-shaped code (selector compares, jumps to real JUMPDESTs, proxy-slot writes, tracked opcodes) keeps the same bounds (200 cases, 3 fixed examples)", () => {
    fc.assert(fc.property(structuredCode, checkBounded), {
      numRuns: 200,
      examples: [[everyCapability()], [denseDispatcher()], [branchChain()]],
    });
    // The generator reaches the dispatcher logic: the examples' selectors are found.
    expect(dissectBytecode(everyCapability()).selectors.length).toBe(new Set(privilegedSelectors.map((p) => p.selectorHex)).size);
    expect(dissectBytecode(denseDispatcher()).selectors.length).toBeGreaterThan(maxCodeBytes / 11);
  });

  test("behavior: any string as hex code either dissects or throws InvalidBytecodeError, nothing else (1,000 cases)", () => {
    const hexish = fc.oneof(
      anyString(80),
      hexDigits(0, 200).map((h) => `0x${h}`),
      hexDigits(0, 80),
    );
    fc.assert(
      fc.property(hexish, (s) => {
        try {
          expect(dissectBytecode(s).bytecodeSizeBytes).toBe((s.length - 2) / 2);
        } catch (err) {
          expect(err).toBeInstanceOf(InvalidBytecodeError);
        }
      }),
      { numRuns: 1000 },
    );
  });

  test("behavior: the slowest cases of the runs above (400 cases and the 3 examples) cost at most 64 times a plain input of the same length, measured in the same run", () => {
    // The examples again, so that the known costliest shape is a candidate when this test runs alone (-t).
    for (const code of [everyCapability(), denseDispatcher(), branchChain()]) checkBounded(code);
    // Each of the five slowest measured again, medians of 15 each, so that one disturbed timing on a busy
    // machine (a collection, another process) neither picks the case nor decides the ratio.
    const ratios = slowest.map(({ code, ms, plainMs }) => {
      const same = plain(code.length);
      const again = median(() => dissectBytecode(code), 15) / median(() => dissectBytecode(same), 15);
      return { bytes: code.length, sameRun: ms / plainMs, again };
    });
    const worst = ratios.reduce((a, b) => (b.again > a.again ? b : a));
    console.info(
      `dissector: the 5 slowest cases, time ratio to a plain input of the same length (in their run / measured again): ${ratios
        .map((r) => `${r.bytes} B ${r.sameRun.toFixed(1)}/${r.again.toFixed(1)}`)
        .join(", ")}`,
    );
    // Linear with a bounded constant: the known costliest shape (branchChain) measures 12-20; a walk that grew
    // with the square of the code would be hundreds at this length.
    expect(worst.again).toBeLessThanOrEqual(64);
  });
});
