import { z } from "zod";

/** Every capability type the static dissection can report: selector-based ones, then opcode-based ones. */
export const CapabilityType = z.enum([
  "MINT_SELECTOR",
  "BURN_SELECTOR",
  "PAUSE_SELECTOR",
  "BLACKLIST_SELECTOR",
  "OWNERSHIP_CHANGE_SELECTOR",
  "ROLE_CHANGE_SELECTOR",
  "UPGRADE_SELECTOR",
  "FEE_SETTER_SELECTOR",
  "LIMIT_SETTER_SELECTOR",
  "DELEGATECALL_OPCODE",
  "SELFDESTRUCT_OPCODE",
  "CALLCODE_OPCODE",
  "CREATE_OPCODE",
  "CREATE2_OPCODE",
  "PROXY_SLOT_WRITE",
]);
export type CapabilityType = z.infer<typeof CapabilityType>;

/** How strongly the bytes support the observation (never a verdict on reachability or intent). */
export const CapabilityConfidence = z.enum(["HIGH", "MEDIUM", "LOW"]);
export type CapabilityConfidence = z.infer<typeof CapabilityConfidence>;

/** A selector on the wire: `0x` and four bytes, lowercase. */
export const SelectorHex = z.string().regex(/^0x[0-9a-f]{8}$/);
export type SelectorHex = z.infer<typeof SelectorHex>;

/** One observed capability pattern with the evidence that produced it. */
export const DissectionCapability = z.object({
  type: CapabilityType,
  confidence: CapabilityConfidence,
  /** Static dissection never establishes reachability. */
  reachability: z.literal("NOT_ESTABLISHED"),
  /** The dispatcher selector behind a selector capability; null for opcode capabilities. */
  selectorHex: SelectorHex.nullable(),
  evidence: z.string(),
});
export type DissectionCapability = z.infer<typeof DissectionCapability>;

/** Real-opcode counts (PUSH data, the data section and the CBOR metadata trailer excluded). */
export const DissectionOpcodeCounts = z.object({
  DELEGATECALL: z.int().nonnegative(),
  SELFDESTRUCT: z.int().nonnegative(),
  CALLCODE: z.int().nonnegative(),
  CREATE: z.int().nonnegative(),
  CREATE2: z.int().nonnegative(),
});
export type DissectionOpcodeCounts = z.infer<typeof DissectionOpcodeCounts>;

/** What kind of code was dissected. */
export const DissectionCodeKind = z.enum(["CONTRACT", "EMPTY", "EIP7702_DELEGATION"]);
export type DissectionCodeKind = z.infer<typeof DissectionCodeKind>;

/** The `dissection` record of a contract observation (spec: TransactionPreflightResponse). */
export const Dissection = z.object({
  isValidContract: z.boolean(),
  bytecodeSizeBytes: z.int().nonnegative(),
  /** `sha256:<hex64>` of the runtime bytes as fetched (metadata trailer included). */
  targetBytecodeHash: z.string().regex(/^sha256:[0-9a-f]{64}$/),
  capabilities: z.array(DissectionCapability),
  /** The distinct capability types of `capabilities`, in table order. */
  detectedCapabilities: z.array(CapabilityType),
  /** Function selectors of the dispatcher, sorted. */
  selectors: z.array(SelectorHex),
  opcodeCounts: DissectionOpcodeCounts,
  metadata: z.object({
    disclaimer: z.string(),
    codeKind: DissectionCodeKind,
    /** The EIP-7702 delegation target when the code is a designator, else null. */
    delegatedTo: z
      .string()
      .regex(/^0x[0-9a-fA-F]{40}$/)
      .nullable(),
    /** Bytes of the Solidity CBOR metadata trailer (length suffix included) left out of the scan. */
    metadataTrailerBytes: z.int().nonnegative(),
    /** Bytes after the last reachable instruction (embedded creation code, constants, appended args). */
    dataSectionBytes: z.int().nonnegative(),
  }),
});
export type Dissection = z.infer<typeof Dissection>;
