import { bytecodeBytes } from "./bytecodeBytes";
import { bytecodeHash } from "./bytecodeHash";
import { CapabilityType, type Dissection, type DissectionCapability, type DissectionCodeKind } from "./Dissection";
import { detectOpcodePatterns, type OpcodePattern } from "./detectOpcodePatterns";
import { disassemble } from "./disassemble";
import { extractSelectors } from "./extractSelectors";
import type { InvalidBytecodeError } from "./InvalidBytecodeError";
import { knownProxySlots } from "./knownProxySlots";
import { parseDelegationDesignator } from "./parseDelegationDesignator";
import { type PrivilegedSelector, privilegedSelectors } from "./privilegedSelectors";

export type DissectBytecodeParameters = Uint8Array | string;
export type DissectBytecodeReturnType = Dissection;
export type DissectBytecodeErrorType = InvalidBytecodeError;

/** The fixed disclaimer every dissection carries. */
export const dissectionDisclaimer =
  "Static bytecode observation of selected selector and opcode patterns only. It is not an audit and not a " +
  "safety verdict: it establishes no reachability, authorization, intent or exploitability, and the absence " +
  "of a pattern is not evidence of safety.";

const privilegedBySelector: ReadonlyMap<string, PrivilegedSelector> = new Map(privilegedSelectors.map((p) => [p.selectorHex, p]));
const typeOrder = new Map(CapabilityType.options.map((t, i) => [t, i]));
const slotValue = new Map<string, string>(knownProxySlots.map((s) => [s.name, s.slot]));
const maxPcsInEvidence = 5;

/**
 * Static dissection of runtime bytecode (no chain access): dispatcher selectors, the privileged ones among
 * them, DELEGATECALL/SELFDESTRUCT/CALLCODE/CREATE/CREATE2 instructions and proxy-slot writes, each with
 * its evidence. Empty code and EIP-7702 delegation designators are not contracts (`isValidContract`
 * false, no capabilities). Throws InvalidBytecodeError when a string is not even-length `0x` hex.
 *
 * @example
 * const dissection = dissectBytecode(await client.getCode({ address, blockNumber }) ?? "0x");
 * dissection.detectedCapabilities // ["MINT_SELECTOR", "OWNERSHIP_CHANGE_SELECTOR"]
 */
export function dissectBytecode(code: DissectBytecodeParameters): DissectBytecodeReturnType {
  const bytes = bytecodeBytes(code);

  const targetBytecodeHash = bytecodeHash(bytes);
  const delegatedTo = parseDelegationDesignator(bytes);
  if (bytes.length === 0 || delegatedTo !== null) {
    return notAContract(bytes.length, targetBytecodeHash, bytes.length === 0 ? "EMPTY" : "EIP7702_DELEGATION", delegatedTo);
  }

  const d = disassemble(bytes);
  const selectors = extractSelectors(d);
  const patterns = detectOpcodePatterns(d);

  const capabilities: DissectionCapability[] = [];
  for (const selectorHex of selectors) {
    const privileged = privilegedBySelector.get(selectorHex);
    if (privileged === undefined) continue;
    capabilities.push({
      type: privileged.type,
      confidence: privileged.confidence,
      reachability: "NOT_ESTABLISHED",
      selectorHex,
      evidence: `PUSH4 ${selectorHex} in dispatcher: ${privileged.signature}`,
    });
  }
  for (const pattern of patterns) {
    capabilities.push({
      type: pattern.type,
      confidence: pattern.confidence,
      reachability: "NOT_ESTABLISHED",
      selectorHex: null,
      evidence: opcodeEvidence(pattern),
    });
  }
  capabilities.sort((a, b) => (typeOrder.get(a.type) as number) - (typeOrder.get(b.type) as number));

  const counts = d.opcodeCounts;
  return {
    isValidContract: true,
    bytecodeSizeBytes: bytes.length,
    targetBytecodeHash,
    capabilities,
    detectedCapabilities: [...new Set(capabilities.map((c) => c.type))],
    selectors,
    opcodeCounts: {
      DELEGATECALL: counts[0xf4] as number,
      SELFDESTRUCT: counts[0xff] as number,
      CALLCODE: counts[0xf2] as number,
      CREATE: counts[0xf0] as number,
      CREATE2: counts[0xf5] as number,
    },
    metadata: {
      disclaimer: dissectionDisclaimer,
      codeKind: "CONTRACT",
      delegatedTo: null,
      metadataTrailerBytes: d.metadataTrailerBytes,
      dataSectionBytes: d.scanEnd - d.executableEnd,
    },
  };
}

function notAContract(size: number, targetBytecodeHash: string, codeKind: DissectionCodeKind, delegatedTo: string | null): Dissection {
  return {
    isValidContract: false,
    bytecodeSizeBytes: size,
    targetBytecodeHash,
    capabilities: [],
    detectedCapabilities: [],
    selectors: [],
    opcodeCounts: { DELEGATECALL: 0, SELFDESTRUCT: 0, CALLCODE: 0, CREATE: 0, CREATE2: 0 },
    metadata: {
      disclaimer: dissectionDisclaimer,
      codeKind,
      delegatedTo,
      metadataTrailerBytes: 0,
      dataSectionBytes: 0,
    },
  };
}

function opcodeEvidence(pattern: OpcodePattern): string {
  if (pattern.type === "PROXY_SLOT_WRITE") {
    const writes = pattern.count === 1 ? "1 write" : `${pattern.count} writes`;
    const load =
      pattern.via === "PUSH32"
        ? `PUSH32 ${pattern.slot} slot ${slotValue.get(pattern.slot)} at pc ${hex(pattern.pc)}`
        : `CODECOPY of the ${pattern.slot} slot constant ${slotValue.get(pattern.slot)} from data offset ` +
          `${hex(pattern.dataOffset ?? 0)} at pc ${hex(pattern.pc)}`;
    return `${load} then SSTORE at pc ${hex(pattern.sstorePc)} (${writes})`;
  }
  return `${pattern.mnemonic} opcode at pc ${pcList(pattern.pcs, pattern.count)} (${occurrences(pattern.count)})`;
}

function pcList(pcs: number[], count: number): string {
  const shown = pcs.slice(0, maxPcsInEvidence).map(hex).join(", ");
  return count > maxPcsInEvidence ? `${shown}, …` : shown;
}

function occurrences(count: number): string {
  return count === 1 ? "1 occurrence" : `${count} occurrences`;
}

function hex(pc: number): string {
  return `0x${pc.toString(16)}`;
}
