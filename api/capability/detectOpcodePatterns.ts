import type { CapabilityConfidence } from "./Dissection";
import { type Disassembly, disassemble, type TrackedOpcode } from "./disassemble";
import type { KnownProxySlotName } from "./knownProxySlots";

export type OpcodeCapabilityType = "DELEGATECALL_OPCODE" | "SELFDESTRUCT_OPCODE" | "CALLCODE_OPCODE" | "CREATE_OPCODE" | "CREATE2_OPCODE";

/** Occurrences of one tracked opcode as a real instruction of the executable region. */
export type OpcodeOccurrencePattern = {
  type: OpcodeCapabilityType;
  mnemonic: string;
  confidence: CapabilityConfidence;
  count: number;
  /** pcs (the first 64 occurrences at most). */
  pcs: number[];
  /** The same byte read as an instruction in the data section: never counted, only reported. */
  dataSectionCount: number;
};

/** A known proxy slot put on the stack (PUSH32 or CODECOPY of a data constant), then SSTORE shortly after. */
export type ProxySlotWritePattern = {
  type: "PROXY_SLOT_WRITE";
  slot: KnownProxySlotName;
  /** HIGH on a straight line, MEDIUM across a jump or jump destination. */
  confidence: CapabilityConfidence;
  via: "PUSH32" | "CODECOPY";
  /** pc of the PUSH32 or CODECOPY and of the SSTORE of the strongest write. */
  pc: number;
  sstorePc: number;
  /** Data offset of the copied constant for CODECOPY, else null. */
  dataOffset: number | null;
  /** How many loads of this slot are followed by an SSTORE. */
  count: number;
};

export type OpcodePattern = OpcodeOccurrencePattern | ProxySlotWritePattern;

const opcodeCapabilities: readonly [TrackedOpcode, OpcodeCapabilityType, string][] = [
  [0xf4, "DELEGATECALL_OPCODE", "DELEGATECALL"],
  [0xff, "SELFDESTRUCT_OPCODE", "SELFDESTRUCT"],
  [0xf2, "CALLCODE_OPCODE", "CALLCODE"],
  [0xf0, "CREATE_OPCODE", "CREATE"],
  [0xf5, "CREATE2_OPCODE", "CREATE2"],
];

const confidenceRank: Record<CapabilityConfidence, number> = { HIGH: 3, MEDIUM: 2, LOW: 1 };

/**
 * DELEGATECALL, SELFDESTRUCT, CALLCODE, CREATE, CREATE2 and writes to proxy slots, on real instructions
 * of the executable region only: never PUSH data, the metadata trailer or the data section (constants,
 * creation code of the contracts this one deploys, appended immutable arguments).
 */
export function detectOpcodePatterns(code: Uint8Array | Disassembly): OpcodePattern[] {
  const d = code instanceof Uint8Array ? disassemble(code) : code;
  const patterns: OpcodePattern[] = [];

  for (const [opcode, type, mnemonic] of opcodeCapabilities) {
    const count = d.opcodeCounts[opcode] as number;
    if (count === 0) continue;
    patterns.push({
      type,
      mnemonic,
      confidence: "HIGH",
      count,
      pcs: d.trackedOpcodePcs[opcode].filter((pc) => pc < d.executableEnd),
      dataSectionCount: d.dataOpcodeCounts[opcode] as number,
    });
  }

  const writes = new Map<KnownProxySlotName, ProxySlotWritePattern>();
  for (const ref of d.proxySlotReferences) {
    if (ref.sstorePc === null || ref.inDataSection) continue;
    const confidence: CapabilityConfidence = ref.straightLine ? "HIGH" : "MEDIUM";
    const seen = writes.get(ref.slot);
    if (seen === undefined) {
      writes.set(ref.slot, {
        type: "PROXY_SLOT_WRITE",
        slot: ref.slot,
        confidence,
        via: ref.via,
        pc: ref.pc,
        sstorePc: ref.sstorePc,
        dataOffset: ref.dataOffset,
        count: 1,
      });
    } else {
      seen.count++;
      if (confidenceRank[confidence] > confidenceRank[seen.confidence]) {
        seen.confidence = confidence;
        seen.via = ref.via;
        seen.pc = ref.pc;
        seen.sstorePc = ref.sstorePc;
        seen.dataOffset = ref.dataOffset;
      }
    }
  }
  patterns.push(...writes.values());
  return patterns;
}
