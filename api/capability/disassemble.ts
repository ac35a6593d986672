import { Buffer } from "node:buffer";
import { type KnownProxySlot, type KnownProxySlotName, knownProxySlots } from "./knownProxySlots";
import { opcodeTable } from "./opcodeTable";
import { solidityMetadataLength } from "./solidityMetadataLength";

/** Opcodes whose positions are kept (not only counted): the ones capabilities are built from. */
export const trackedOpcodes = [0xf0, 0xf2, 0xf4, 0xf5, 0xff] as const;
export type TrackedOpcode = (typeof trackedOpcodes)[number];

/** A known proxy slot put on the stack, and whether an SSTORE followed it closely. */
export type ProxySlotReference = {
  slot: KnownProxySlotName;
  /**
   * How the slot reached the stack: a PUSH32, or solc's constant-copy routine
   * (`PUSH1 0x20 PUSH <offset> PUSH0 CODECOPY`) reading it from the data section.
   */
  via: "PUSH32" | "CODECOPY";
  /** pc of the PUSH32 or the CODECOPY. */
  pc: number;
  /** Where the 32 bytes lie in the code for CODECOPY (in the data section), else null. */
  dataOffset: number | null;
  /** pc of the SSTORE within `proxySlotWriteWindow` instructions after the push, else null. */
  sstorePc: number | null;
  /** No JUMP, JUMPI or JUMPDEST between the push and the SSTORE. */
  straightLine: boolean;
  /** The instruction lies in the data section (embedded creation code, constants), not in reachable code. */
  inDataSection: boolean;
};

/** The result of one linear pass over runtime bytecode. */
export type Disassembly = {
  /** The runtime bytes as given (not copied). */
  code: Uint8Array;
  /** Bytes of the Solidity CBOR metadata trailer, 0 when there is none. */
  metadataTrailerBytes: number;
  /** End of the scanned instruction stream: the code without its metadata trailer. */
  scanEnd: number;
  /**
   * End of the executable region. After it, up to `scanEnd`, lies the data section: the first
   * instruction that follows a halting one, is not a JUMPDEST and lies beyond every JUMPDEST that an
   * earlier PUSH names (so no jump can enter it), and everything after (creation code of contracts
   * this one deploys, constants, appended immutable arguments).
   */
  executableEnd: number;
  /** A PUSH immediate runs past `scanEnd` (the missing bytes read as zero, as the EVM does). */
  truncatedPush: boolean;
  instructionCount: number;
  /** 1 at the pc of each JUMPDEST instruction (not PUSH data) before `scanEnd`. */
  jumpdests: Uint8Array;
  /** Instruction counts per opcode in the executable region. */
  opcodeCounts: Uint32Array;
  /** Instruction counts per opcode in the data section (bytes read as if they were code). */
  dataOpcodeCounts: Uint32Array;
  /** pcs of the tracked opcodes, executable region and data section alike, in order (at most 64 each). */
  trackedOpcodePcs: Record<TrackedOpcode, number[]>;
  proxySlotReferences: ProxySlotReference[];
};

/** How many instructions after a proxy-slot PUSH32 an SSTORE still counts as writing that slot. */
export const proxySlotWriteWindow = 24;

const maxPcsPerOpcode = 64;
const slotBytes = knownProxySlots.map((s) => Uint8Array.from(Buffer.from(s.slot.slice(2), "hex")));
const slotHeads = new Uint32Array(slotBytes.map((b) => readWord32(b, 0)));
const { halts } = opcodeTable;

// What the hot loop does per opcode: 1..32 PUSH size, or one of these (0: nothing more).
const JUMPDEST = 33;
const TRACKED = 34;
const SSTORE = 35;
const CODECOPY = 36;
const JUMP = 37;
const kind = new Uint8Array(256);
for (let op = 0x60; op <= 0x7f; op++) kind[op] = op - 0x5f;
kind[0x5b] = JUMPDEST;
for (const op of trackedOpcodes) kind[op] = TRACKED;
kind[0x55] = SSTORE;
kind[0x39] = CODECOPY;
kind[0x56] = JUMP;
kind[0x57] = JUMP;

/**
 * One linear pass over runtime bytecode: skips PUSH immediates, leaves out the Solidity metadata trailer,
 * marks JUMPDESTs, counts every opcode, finds the start of the data section and the known proxy slots put
 * on the stack by PUSH32 or by a CODECOPY of a data constant (with the SSTORE that may follow). No
 * allocation per instruction.
 */
export function disassemble(code: Uint8Array): Disassembly {
  const metadataTrailerBytes = solidityMetadataLength(code);
  const end = code.length - metadataTrailerBytes;
  const jumpdests = new Uint8Array(end);
  const opcodeCounts = new Uint32Array(256);
  const dataOpcodeCounts = new Uint32Array(256);
  const trackedOpcodePcs: Record<TrackedOpcode, number[]> = { 240: [], 242: [], 244: [], 245: [], 255: [] };
  const proxySlotReferences: ProxySlotReference[] = [];

  let counts = opcodeCounts;
  let executableEnd = -1;
  let maxTarget = 0; // highest JUMPDEST an earlier PUSH1..PUSH3 names (while still in the executable region)
  let previous = 0x5b; // the previous opcode (a neutral start)
  let truncatedPush = false;
  let pending: ProxySlotReference | null = null; // last proxy-slot load still waiting for its SSTORE
  let pendingLeft = 0;

  let pc = 0;
  while (pc < end) {
    const op = code[pc] as number;
    if (pc > maxTarget && executableEnd < 0 && op !== 0x5b && halts[previous] === 1) {
      // nothing falls through to here and no jump can land here: the data section starts
      executableEnd = pc;
      counts = dataOpcodeCounts;
    }
    previous = op;
    (counts[op] as number)++;
    const k = kind[op] as number;

    if (pending !== null) {
      if (k === SSTORE) {
        pending.sstorePc = pc;
        pending = null;
      } else if (--pendingLeft === 0) pending = null;
      else if (k === JUMP || k === JUMPDEST) pending.straightLine = false;
    }
    if (k === 0) {
      pc++;
      continue;
    }

    if (k <= 32) {
      const next = pc + 1 + k;
      if (next > end) truncatedPush = true;
      if (k <= 3) {
        if (executableEnd < 0) {
          let value = (code[pc + 1] as number) | 0;
          if (k > 1) value = (value << 8) | (code[pc + 2] as number);
          if (k > 2) value = (value << 8) | (code[pc + 3] as number);
          if (value > maxTarget && value < end && code[value] === 0x5b) maxTarget = value;
        }
      } else if (k === 32 && next <= end) {
        const slot = matchProxySlot(code, pc + 1);
        if (slot >= 0) {
          pending = slotReference(slot, "PUSH32", pc, null, executableEnd >= 0);
          pendingLeft = proxySlotWriteWindow;
          proxySlotReferences.push(pending);
        }
      }
      pc = next;
      continue;
    }

    if (k === JUMPDEST) jumpdests[pc] = 1;
    else if (k === TRACKED) {
      const pcs = trackedOpcodePcs[op as TrackedOpcode];
      if (pcs.length < maxPcsPerOpcode) pcs.push(pc);
    } else if (k === CODECOPY) {
      const offset = constantCopyOffset(code, pc);
      if (offset >= 0 && offset + 32 <= end) {
        const slot = matchProxySlot(code, offset);
        if (slot >= 0) {
          pending = slotReference(slot, "CODECOPY", pc, offset, executableEnd >= 0);
          pendingLeft = proxySlotWriteWindow;
          proxySlotReferences.push(pending);
        }
      }
    }
    pc++;
  }

  let instructionCount = 0;
  for (let op = 0; op < 256; op++) instructionCount += (opcodeCounts[op] as number) + (dataOpcodeCounts[op] as number);
  return {
    code,
    metadataTrailerBytes,
    scanEnd: end,
    executableEnd: executableEnd < 0 ? end : executableEnd,
    truncatedPush,
    instructionCount,
    jumpdests,
    opcodeCounts,
    dataOpcodeCounts,
    trackedOpcodePcs,
    proxySlotReferences,
  };
}

/**
 * The source offset when the CODECOPY at `pc` ends solc's constant-copy routine
 * `PUSH1 0x20, PUSH1..3 <offset>, PUSH0 | PUSH1 0x00` (32 bytes to memory 0), else -1.
 */
function constantCopyOffset(code: Uint8Array, pc: number): number {
  for (let destLength = 1; destLength <= 2; destLength++) {
    const dest = pc - destLength;
    if (destLength === 1 ? code[dest] !== 0x5f : code[dest] !== 0x60 || code[dest + 1] !== 0x00) continue;
    for (let width = 1; width <= 3; width++) {
      const push = dest - 1 - width;
      if (push < 2 || code[push] !== 0x5f + width || code[push - 2] !== 0x60 || code[push - 1] !== 0x20) continue;
      let offset = 0;
      for (let i = 1; i <= width; i++) offset = offset * 256 + (code[push + i] as number);
      return offset;
    }
  }
  return -1;
}

function slotReference(
  slot: number,
  via: ProxySlotReference["via"],
  pc: number,
  dataOffset: number | null,
  inDataSection: boolean,
): ProxySlotReference {
  return { slot: (knownProxySlots[slot] as KnownProxySlot).name, via, pc, dataOffset, sstorePc: null, straightLine: true, inDataSection };
}

/** The big-endian 32-bit word at `at`. */
function readWord32(bytes: Uint8Array, at: number): number {
  return (
    (((bytes[at] as number) << 24) | ((bytes[at + 1] as number) << 16) | ((bytes[at + 2] as number) << 8) | (bytes[at + 3] as number)) >>> 0
  );
}

/** Index in `knownProxySlots` of the 32 bytes at `at`, or -1. */
function matchProxySlot(code: Uint8Array, at: number): number {
  const head = readWord32(code, at);
  for (let s = 0; s < slotHeads.length; s++) {
    if (slotHeads[s] !== head) continue;
    const bytes = slotBytes[s] as Uint8Array;
    let i = 4;
    while (i < 32 && bytes[i] === code[at + i]) i++;
    if (i === 32) return s;
  }
  return -1;
}
