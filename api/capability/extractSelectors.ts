import { type Disassembly, disassemble } from "./disassemble";
import { opcodeTable } from "./opcodeTable";

export type ExtractSelectorsParameters = {
  /**
   * Also return selectors compared by code that never checked `calldatasize() < 4` first, when there are
   * fewer than two of them: a lone `if eq(shr(224, calldataload(0)), 0xa619486e) {…}` in a proxy's
   * fallback is answered by the code, yet is no function of a dispatcher. Default false.
   */
  includeInlineChecks?: boolean;
};

/** Sorted `0x`-prefixed lowercase selectors. */
export type ExtractSelectorsReturnType = string[];

// Abstract stack values, one number each: constants are themselves (exact below 2^53), symbols negative.
const UNKNOWN = -1;
const CALLDATA_WORD = -2; // calldataload(0)
const SELECTOR = -3; // calldataload(0) >> 224, or the same through DIV 2^224 / AND 0xffffffff
const TWO_POW_224 = -4;
const BIG = -5; // a constant too wide to matter here
const CALLDATA_SIZE = -6;
const SIZE_CHECK = -7; // calldatasize() compared with 3 or 4: the guard in front of every compiled dispatcher
const EQ_BASE = 2 ** 40; // -(EQ_BASE + c): selector == c
const NE_BASE = 2 ** 41; // -(NE_BASE + c): selector != c
const MAX_SELECTOR = 0xffffffff;

const { stackIn, stackOut } = opcodeTable;

/** How often one pc may be walked (by different paths, e.g. a helper called from several places). */
const maxVisits = 4;

/**
 * Stack entries a branch takes with it (the top ones; deeper ones read as unknown). The deepest stack at a
 * branch in the 261 corpus contracts is 14 entries; the cap keeps the walk linear in the code size: without
 * it, code that fills the stack before a chain of JUMPIs costs a 1024-entry copy per JUMPI (measured: 98 ms
 * for 24 KiB of such code, 3-8 ms with the cap).
 */
const maxBranchStack = 64;

/**
 * The function selectors of the dispatcher, from a small abstract interpretation that starts at pc 0,
 * derives the selector from `calldataload(0)` (SHR 224; DIV 2^224 and AND 0xffffffff in old solc) and
 * follows every branch except into function bodies. A selector is a constant the selector is compared
 * with and branched on: `EQ PUSH JUMPI` (jump to the body) or `SUB`/`XOR`/`EQ ISZERO` then JUMPI (fall
 * into it), in linear chains and GT/LT binary-search trees, legacy and via-IR alike. Only comparisons on
 * paths that passed the `calldatasize() < 4` guard count (unless there is no guard and at least two
 * selectors, as in hand-written dispatchers). Constants elsewhere (masks such as 0xffffffff, ERC-721
 * receiver magic values, selectors of calls this contract makes) are never taken.
 *
 * @example
 * extractSelectors(bytes) // ["0x06fdde03", "0x095ea7b3", ...]
 */
export function extractSelectors(code: Uint8Array | Disassembly, options: ExtractSelectorsParameters = {}): ExtractSelectorsReturnType {
  const d = code instanceof Uint8Array ? disassemble(code) : code;
  const bytes = d.code;
  const end = d.scanEnd;
  const jumpdests = d.jumpdests;
  const visits = new Uint8Array(end);
  const guardedSelectors = new Set<number>();
  const unguardedSelectors = new Set<number>();

  const pcs: number[] = [0];
  const stacks: number[][] = [[]];
  const guards: boolean[] = [false];
  while (pcs.length > 0) {
    let pc = pcs.pop() as number;
    const stack = stacks.pop() as number[];
    let guarded = guards.pop() as boolean;
    path: while (pc < end && (visits[pc] as number) < maxVisits) {
      (visits[pc] as number)++;
      const op = bytes[pc] as number;

      if (stack.length > 1024) break; // the EVM would overflow here too; also bounds branch copies
      if (op >= 0x5f && op <= 0x7f) {
        // PUSH0..PUSH32
        const size = op - 0x5f;
        stack.push(pushValue(bytes, pc + 1, size, end));
        pc += size + 1;
        continue;
      }
      if (op >= 0x80 && op <= 0x8f) {
        const depth = op - 0x7f;
        stack.push(stack.length >= depth ? (stack[stack.length - depth] as number) : UNKNOWN);
        pc++;
        continue;
      }
      if (op >= 0x90 && op <= 0x9f) {
        const depth = op - 0x8f;
        while (stack.length <= depth) stack.unshift(UNKNOWN);
        const top = stack.length - 1;
        const other = top - depth;
        const t = stack[top] as number;
        stack[top] = stack[other] as number;
        stack[other] = t;
        pc++;
        continue;
      }

      switch (op) {
        case 0x56: {
          // JUMP
          const dest = pop(stack);
          if (dest >= 0 && dest < end && jumpdests[dest] === 1) {
            pc = dest;
            continue;
          }
          break path;
        }
        case 0x57: {
          // JUMPI
          const dest = pop(stack);
          const cond = pop(stack);
          const validDest = dest >= 0 && dest < end && jumpdests[dest] === 1;
          if (cond <= -EQ_BASE) {
            const found = guarded ? guardedSelectors : unguardedSelectors;
            if (cond > -NE_BASE) {
              // taken when the selector matches: the target is that function's body, not followed
              if (validDest) found.add(-cond - EQ_BASE);
              pc++;
              continue;
            }
            // taken when the selector differs: the fall-through is the function's body
            found.add(-cond - NE_BASE);
            if (!validDest) break path;
            pc = dest;
            continue;
          }
          if (cond === SIZE_CHECK) guarded = true;
          if (validDest) {
            pcs.push(dest);
            stacks.push(stack.slice(-maxBranchStack));
            guards.push(guarded);
          }
          pc++;
          continue;
        }
        case 0x35: // CALLDATALOAD
          stack.push(pop(stack) === 0 ? CALLDATA_WORD : UNKNOWN);
          break;
        case 0x36: // CALLDATASIZE
          stack.push(CALLDATA_SIZE);
          break;
        case 0x1c: {
          // SHR(shift, value)
          const shift = pop(stack);
          const value = pop(stack);
          stack.push(shift === 224 && value === CALLDATA_WORD ? SELECTOR : UNKNOWN);
          break;
        }
        case 0x04: {
          // DIV(a, b)
          const a = pop(stack);
          const b = pop(stack);
          stack.push(a === CALLDATA_WORD && b === TWO_POW_224 ? SELECTOR : UNKNOWN);
          break;
        }
        case 0x0a: {
          // EXP(base, exponent)
          const base = pop(stack);
          const exponent = pop(stack);
          stack.push(base === 2 && exponent === 224 ? TWO_POW_224 : UNKNOWN);
          break;
        }
        case 0x16: {
          // AND
          const a = pop(stack);
          const b = pop(stack);
          stack.push((a === SELECTOR && b === MAX_SELECTOR) || (b === SELECTOR && a === MAX_SELECTOR) ? SELECTOR : UNKNOWN);
          break;
        }
        case 0x14: // EQ
        case 0x03: // SUB
        case 0x18: // XOR
        case 0x10: // LT
        case 0x11: // GT
        case 0x12: // SLT
        case 0x13: {
          // SGT
          const a = pop(stack);
          const b = pop(stack);
          if (a === CALLDATA_SIZE || b === CALLDATA_SIZE) {
            const other = a === CALLDATA_SIZE ? b : a;
            stack.push(other === 4 || other === 3 ? SIZE_CHECK : UNKNOWN);
            break;
          }
          const c = a === SELECTOR ? b : b === SELECTOR ? a : -1;
          if (c < 0 || c > MAX_SELECTOR || op === 0x10 || op === 0x11 || op === 0x12 || op === 0x13) {
            stack.push(UNKNOWN); // not a selector test, or a GT/LT split of a binary search
          } else stack.push(op === 0x14 ? -(EQ_BASE + c) : -(NE_BASE + c)); // SUB, XOR: non-zero when different
          break;
        }
        case 0x15: {
          // ISZERO
          const a = pop(stack);
          if (a === SELECTOR) stack.push(-EQ_BASE);
          else if (a === SIZE_CHECK) stack.push(SIZE_CHECK);
          else if (a <= -EQ_BASE && a > -NE_BASE)
            stack.push(a - EQ_BASE); // == c  ->  != c
          else if (a <= -NE_BASE)
            stack.push(a + EQ_BASE); // != c  ->  == c
          else stack.push(UNKNOWN);
          break;
        }
        default: {
          const inputs = stackIn[op] as number;
          if (inputs < 0 || op === 0x00 || op === 0xf3 || op === 0xfd || op === 0xfe || op === 0xff) break path;
          for (let i = 0; i < inputs; i++) stack.pop();
          for (let i = stackOut[op] as number; i > 0; i--) stack.push(UNKNOWN);
        }
      }
      pc++;
    }
  }

  // Code without the size guard compares selectors only in hand-written dispatchers (two or more) or in
  // inline checks of a fallback (usually one).
  let found = guardedSelectors;
  if (unguardedSelectors.size > 0 && (options.includeInlineChecks || (guardedSelectors.size === 0 && unguardedSelectors.size > 1))) {
    found = new Set([...guardedSelectors, ...unguardedSelectors]);
  }
  return [...found].sort((a, b) => a - b).map(formatSelector);
}

function pop(stack: number[]): number {
  return stack.length > 0 ? (stack.pop() as number) : UNKNOWN;
}

/** The abstract value of a PUSH immediate of `size` bytes at `at` (bytes past `end` read as zero). */
function pushValue(code: Uint8Array, at: number, size: number, end: number): number {
  if (size <= 6) {
    let value = 0;
    for (let i = at; i < at + size; i++) value = value * 256 + (i < end ? (code[i] as number) : 0);
    return value;
  }
  if (size === 29 && code[at] === 1) {
    // old solc's 0x0100000000000000000000000000000000000000000000000000000000 (2^224)
    let i = at + 1;
    while (i < at + 29 && i < end && code[i] === 0) i++;
    if (i === at + 29) return TWO_POW_224;
  }
  // wide pushes that still hold a small value (leading zero bytes) stay exact
  let lead = at;
  const stop = Math.min(at + size, end);
  while (lead < stop && code[lead] === 0) lead++;
  if (at + size - lead > 6) return BIG;
  let value = 0;
  for (let i = lead; i < at + size; i++) value = value * 256 + (i < end ? (code[i] as number) : 0);
  return value;
}

const byteHex = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, "0"));

function formatSelector(selector: number): string {
  return `0x${byteHex[selector >>> 24]}${byteHex[(selector >>> 16) & 0xff]}${byteHex[(selector >>> 8) & 0xff]}${byteHex[selector & 0xff]}`;
}
