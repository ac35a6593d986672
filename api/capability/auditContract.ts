import type { Address } from "viem";
import type { RpcProvider } from "../chain/providers";
import type { AuditResponse, ScoreResponse } from "./AuditResponse";
import { observationLimitations } from "./limitations";
import { type ContractObservation, type ObservationFailure, observeContract } from "./observeContract";
import { type CapabilityScore, scoreCapabilities } from "./scoreCapabilities";

export type AuditContractDeps = { providers: readonly RpcProvider[]; chainId: number };

/** Observes `address` at a pinned block and shapes the AuditResponse; a failure is a value (503 for the route). */
export async function auditContract(
  deps: AuditContractDeps,
  address: Address,
): Promise<{ ok: true; audit: AuditResponse } | ObservationFailure> {
  const result = await observeContract({ ...deps, address });
  if (!result.ok) return result;
  return { ok: true, audit: shapeAudit(result.observation, scoreCapabilities(result.observation), address) };
}

/** The ScoreResponse of `address`, computed by the same observation as the audit. */
export async function scoreContract(
  deps: AuditContractDeps,
  address: Address,
): Promise<{ ok: true; score: ScoreResponse } | ObservationFailure> {
  const result = await observeContract({ ...deps, address });
  if (!result.ok) return result;
  return { ok: true, score: shapeScore(result.observation, scoreCapabilities(result.observation), address) };
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
