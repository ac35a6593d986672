import { z } from "zod";
import { ObservationBlock, RpcObservation, TrustLevel } from "../chain/ObservationBlock";
import { WireAddress } from "../http/params";
import { CapabilityType, Dissection, DissectionCapability } from "./Dissection";
import { ResolutionRecord } from "./Resolution";

/** The role a piece of code plays for a call to the observed address. */
export const ExecutionRole = z.enum(["SURFACE_TARGET", "IMPLEMENTATION", "BEACON", "DELEGATE", "DIAMOND_FACET", "SELECTED_DIAMOND_FACET"]);
export type ExecutionRole = z.infer<typeof ExecutionRole>;

/** A dissection capability, with the code it was seen in. */
export const AuditCapability = DissectionCapability.extend({ sourceAddress: WireAddress, executionRole: ExecutionRole });

export const DeductionType = z.enum([...CapabilityType.options, "UPGRADEABLE_PROXY", "EIP7702_DELEGATED_ACCOUNT", "INCOMPLETE_RESOLUTION"]);
export type DeductionType = z.infer<typeof DeductionType>;

export const Deduction = z.strictObject({
  type: DeductionType,
  points: z.int().positive(),
  occurrences: z.int().positive(),
  sources: z.array(z.string()),
  evidence: z.string(),
});
export type Deduction = z.infer<typeof Deduction>;

/** Rating of the coverage index; UNVERIFIED when evidence grade was not reached, NOT_A_CONTRACT without code. */
export const CapabilityRating = z.enum([
  "MINIMAL_SURFACE",
  "LIMITED_SURFACE",
  "SUBSTANTIAL_SURFACE",
  "EXTENSIVE_SURFACE",
  "NOT_A_CONTRACT",
  "UNVERIFIED",
]);
export type CapabilityRating = z.infer<typeof CapabilityRating>;

const provenance = {
  evidenceGrade: z.boolean(),
  evidenceStatus: z.enum(["VERIFIED", "UNVERIFIED"]),
  effectiveTrust: TrustLevel,
  observationBlock: ObservationBlock,
};

/** Statements of what the observation is not; always present. */
export const Limitations = z.array(z.string()).min(1);

/** The spec's rule: the score is null exactly when evidence grade was not reached, and then the rating is UNVERIFIED. */
const nullOnlyWhenUnverified = (r: { capabilityScore: number | null; capabilityRating: CapabilityRating }) =>
  (r.capabilityScore === null) === (r.capabilityRating === "UNVERIFIED");
const nullScoreRule = { message: "capabilityScore is null exactly when capabilityRating is UNVERIFIED", path: ["capabilityScore"] };

/** ScoreResponse: the coverage index (higher = fewer selected patterns observed) and its deduction breakdown. */
export const ScoreResponse = z
  .strictObject({
    address: WireAddress,
    chainId: z.int(),
    network: z.string(),
    notASafetyGuarantee: z.literal(true),
    capabilityScore: z.int().min(0).max(100).nullable(),
    capabilityRating: CapabilityRating,
    maxScore: z.literal(100),
    deductions: z.array(Deduction),
    ...provenance,
    limitations: Limitations,
  })
  .refine(nullOnlyWhenUnverified, nullScoreRule);
export type ScoreResponse = z.infer<typeof ScoreResponse>;

/** AuditResponse: capability observations, proxy resolution and the coverage index of one address. */
export const AuditResponse = z
  .strictObject({
    status: z.literal("SUCCESS"),
    operation: z.literal("CONTRACT_CAPABILITY_OBSERVATION"),
    address: WireAddress,
    chainId: z.int(),
    network: z.string(),
    isContract: z.boolean(),
    notASafetyGuarantee: z.literal(true),
    capabilityRating: CapabilityRating,
    capabilityScore: z.int().min(0).max(100).nullable(),
    score: z.strictObject({ maxScore: z.literal(100), deductions: z.array(Deduction) }),
    ...provenance,
    resolvedExecutionTarget: WireAddress,
    resolvedImplementation: WireAddress.nullable(),
    resolvedFacet: WireAddress.nullable(),
    resolution: ResolutionRecord,
    capabilities: z.array(AuditCapability),
    detectedCapabilities: z.array(CapabilityType),
    dissections: z.array(z.strictObject({ address: WireAddress, executionRole: ExecutionRole, dissection: Dissection })),
    reachability: z.literal("NOT_ESTABLISHED"),
    rpcObservation: RpcObservation,
    limitations: Limitations,
  })
  .refine(nullOnlyWhenUnverified, nullScoreRule);
export type AuditResponse = z.infer<typeof AuditResponse>;
