import type { Address } from "viem";
import type { RpcProvider } from "../chain/providers";
import { type Result, success } from "../errors";
import type { AuditResponse, ScoreResponse } from "./AuditResponse";
import type { DissectionCache } from "./createDissectionCache";
import type { ObservationCache } from "./createObservationCache";
import { observationLimitations } from "./limitations";
import { observationRefusal } from "./observationRefusal";
import { type ContractObservation, observeContract } from "./observeContract";
import { type CapabilityScore, scoreCapabilities } from "./scoreCapabilities";

export type AuditContractParameters = {
  providers: readonly RpcProvider[];
  chainId: number;
  /** Shares observations between requests at the same pinned block; absent, every request observes afresh. */
  observationCache?: ObservationCache;
  /** Keeps dissections by code hash across blocks. */
  dissectionCache?: DissectionCache;
};

/** Observes `address` at a pinned block and shapes the AuditResponse; no pinned block is DATA_SOURCE_UNAVAILABLE. */
export async function auditContract(deps: AuditContractParameters, address: Address): Promise<Result<AuditResponse>> {
  return (await auditContractCountingReads(deps, address)).result;
}

/**
 * The audit and the state-bearing RPC reads this request made for it, a failed one's included (none for an
 * observation shared with another request): what the demo's work budget charges.
 */
export async function auditContractCountingReads(
  deps: AuditContractParameters,
  address: Address,
): Promise<{ result: Result<AuditResponse>; reads: number }> {
  const result = await observeContract({ ...deps, address });
  if (!result.ok) return { result: observationRefusal(result), reads: result.reads };
  const audit = shapeAudit(result.observation, scoreCapabilities(result.observation), address);
  const { observationReused, stateBearingCallCount } = audit.rpcObservation;
  return { result: success(audit), reads: observationReused ? 0 : stateBearingCallCount };
}

/** The ScoreResponse of `address`, computed by the same observation as the audit. */
export async function scoreContract(deps: AuditContractParameters, address: Address): Promise<Result<ScoreResponse>> {
  const result = await observeContract({ ...deps, address });
  if (!result.ok) return observationRefusal(result);
  return success(shapeScore(result.observation, scoreCapabilities(result.observation), address));
}

function provenance(
  observation: ContractObservation,
): Pick<AuditResponse, "evidenceGrade" | "evidenceStatus" | "effectiveTrust" | "observationBlock"> {
  const { block } = observation;
  return {
    evidenceGrade: block.evidenceGrade,
    evidenceStatus: block.evidenceGrade ? "VERIFIED" : "UNVERIFIED",
    effectiveTrust: block.trustLevel,
    observationBlock: block,
  };
}

function shapeScore(observation: ContractObservation, score: CapabilityScore, address: Address): ScoreResponse {
  return {
    address,
    chainId: observation.block.chainId,
    network: observation.block.network,
    notASafetyGuarantee: true,
    capabilityScore: score.capabilityScore,
    capabilityRating: score.capabilityRating,
    maxScore: score.maxScore,
    deductions: score.deductions,
    ...provenance(observation),
    limitations: [...observationLimitations],
  };
}

function shapeAudit(observation: ContractObservation, score: CapabilityScore, address: Address): AuditResponse {
  const { resolution, dissected } = observation;
  const capabilities = dissected.flatMap(({ address: sourceAddress, role, dissection }) =>
    dissection.capabilities.map((c) => ({ ...c, sourceAddress, executionRole: role })),
  );
  const { executionTarget, implementation, facet, ...resolutionRecord } = resolution;
  return {
    status: "SUCCESS",
    operation: "CONTRACT_CAPABILITY_OBSERVATION",
    address,
    chainId: observation.block.chainId,
    network: observation.block.network,
    isContract: resolution.status !== "NOT_A_CONTRACT",
    notASafetyGuarantee: true,
    capabilityRating: score.capabilityRating,
    capabilityScore: score.capabilityScore,
    score: { maxScore: score.maxScore, deductions: score.deductions },
    ...provenance(observation),
    resolvedExecutionTarget: executionTarget,
    resolvedImplementation: implementation,
    resolvedFacet: facet,
    resolution: resolutionRecord,
    capabilities,
    detectedCapabilities: [...new Set(capabilities.map((c) => c.type))],
    dissections: dissected.map(({ address: codeAddress, role, dissection }) => ({ address: codeAddress, executionRole: role, dissection })),
    reachability: "NOT_ESTABLISHED",
    rpcObservation: observation.rpcObservation(),
    limitations: [...observationLimitations],
  };
}
