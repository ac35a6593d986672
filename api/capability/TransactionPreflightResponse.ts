import { z } from "zod";
import { ObservationEvidence } from "../chain/ObservationBlock";
import { WireAddress } from "../http/params";
import { ExecutionRole, Limitations } from "./AuditResponse";
import { Dissection } from "./Dissection";
import { CodeNode, PathHop, ResolutionRecord } from "./Resolution";

const bytecodeHash = z.string().regex(/^sha256:[0-9a-f]{64}$/);

/** The eth_call observation at the pinned block: evidence of that block's state, not a prediction. */
export const SimulationObservation = z.strictObject({
  attempted: z.boolean(),
  outcome: z.enum(["SUCCEEDED", "REVERTED", "FAILED", "NOT_ATTEMPTED"]),
  trusted: z.boolean(),
  returnData: z.string().regex(/^0x[0-9a-f]*$/),
  /** The provider's error text for REVERTED and FAILED, at most 300 characters. */
  error: z.string().max(300).optional(),
  blockTag: z.string().nullable(),
  evidenceOnly: z.literal(true),
});

/** TransactionPreflightResponse (spec shape; `conclusion` is always null: the caller's policy decides). */
export const TransactionPreflightResponse = z.strictObject({
  status: z.literal("SUCCESS"),
  operation: z.literal("TRANSACTION_PREFLIGHT_OBSERVATION"),
  request: z.record(z.string(), z.unknown()),
  selectorHex: z
    .string()
    .regex(/^0x[0-9a-f]{8}$/)
    .nullable(),
  surfaceTarget: WireAddress,
  surfaceTargetInfo: CodeNode.nullable(),
  nodes: z.array(CodeNode),
  resolvedExecutionTarget: WireAddress,
  resolvedImplementation: WireAddress.nullable(),
  resolvedFacet: WireAddress.nullable(),
  completeResolutionPath: z.array(PathHop),
  resolution: ResolutionRecord,
  bytecodeHashes: z.strictObject({
    runtimeBytecodeHash: bytecodeHash.nullable(),
    finalTargetBytecodeHash: bytecodeHash.nullable(),
    facetBytecodeHash: bytecodeHash.nullable(),
    facetBytecodeHashes: z.array(z.strictObject({ address: WireAddress, runtimeBytecodeHash: bytecodeHash.nullable() })),
  }),
  capabilityEvidence: z
    .strictObject({
      sourceAddress: WireAddress,
      executionRole: ExecutionRole,
      transactionSelector: z.string().nullable(),
      notASafetyGuarantee: z.literal(true),
      reachability: z.literal("NOT_ESTABLISHED"),
      dissection: Dissection,
    })
    .nullable(),
  simulationObservation: SimulationObservation,
  ...ObservationEvidence,
  reachability: z.literal("NOT_ESTABLISHED"),
  limitations: Limitations,
  conclusion: z.null(),
});
export type TransactionPreflightResponse = z.infer<typeof TransactionPreflightResponse>;
