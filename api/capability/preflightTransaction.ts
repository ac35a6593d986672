import type { Hex } from "viem";
import { z } from "zod";
import { baseChainId } from "../../base/baseChain";
import { failure, type Result, success } from "../errors";
import { AddressParam } from "../http/params";
import type { AuditContractParameters } from "./auditContract";
import { observationLimitations, simulationLimitation } from "./limitations";
import { observationRefusal } from "./observationRefusal";
import { type ContractObservation, observeContract } from "./observeContract";
import type { TransactionPreflightResponse } from "./TransactionPreflightResponse";

/** TransactionPreflightRequest: strict (unknown fields are refused); only `chainId` and `to` are required. */
export const TransactionPreflightRequest = z.strictObject({
  chainId: z.literal(baseChainId, { error: `must be ${baseChainId} (Base mainnet)` }),
  to: AddressParam,
  data: z
    .string()
    .regex(/^0x([0-9a-fA-F]{2})*$/, "must be 0x-prefixed hex of whole bytes")
    .max(2 + 2 * 128 * 1024, "must be at most 128 KiB")
    .default("0x")
    .transform((d) => d.toLowerCase() as Hex),
  from: AddressParam.optional(),
  value: z
    .string()
    .regex(/^0x(0|[1-9a-fA-F][0-9a-fA-F]{0,63})$/, "must be a hex quantity (0x0, 0x1bc16d674ec80000, ...)")
    .optional()
    .transform((v) => v?.toLowerCase() as Hex | undefined),
  blockNumber: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER).optional(),
});
export type TransactionPreflightRequest = z.infer<typeof TransactionPreflightRequest>;

export type PreflightParameters = AuditContractParameters;

/**
 * Preflight evidence for one transaction: pins a block (the requested one or the providers' common
 * head), resolves `to` for the calldata's selector down to the executing code or Diamond facet, hashes
 * every code on the path, dissects the selected code, and observes an `eth_call` at that block.
 * `conclusion` is always null: the caller's policy decides.
 */
export async function preflightTransaction(
  deps: PreflightParameters,
  request: TransactionPreflightRequest,
): Promise<Result<TransactionPreflightResponse>> {
  const selector = request.data.length >= 10 ? (request.data.slice(0, 10) as Hex) : undefined;
  const result = await observeContract({ ...deps, address: request.to, selector, blockNumber: request.blockNumber });
  if (!result.ok) return observationRefusal(result);
  const { observation } = result;
  if (!observation.block.evidenceGrade) {
    // A decision product: without evidence grade there is no answer (and nothing to charge for).
    return failure("DATA_SOURCE_UNAVAILABLE", `no evidence-grade observation block: ${observation.block.reason}`, {
      observationBlock: observation.block,
    });
  }
  const [call] = await observation.reader.read([
    { kind: "call", to: request.to, data: request.data, from: request.from, value: request.value },
  ]);
  return success(shapePreflight(request, selector ?? null, observation, call));
}

type CallResult = Awaited<ReturnType<ContractObservation["reader"]["read"]>>[number] | undefined;

function shapePreflight(
  request: TransactionPreflightRequest,
  selectorHex: Hex | null,
  observation: ContractObservation,
  call: CallResult,
): TransactionPreflightResponse {
  const { block, resolution, dissected } = observation;
  const surface = resolution.nodes[0];
  const selected = dissected.find((d) => d.address === resolution.executionTarget) ?? dissected[0];
  const finalNode = [...resolution.nodes, ...(resolution.diamond?.facets ?? [])].find((n) => n.address === resolution.executionTarget);
  const facetNode = resolution.diamond?.facets.find((f) => f.address === resolution.facet);
  const { executionTarget, implementation, facet, ...resolutionRecord } = resolution;
  return {
    status: "SUCCESS",
    operation: "TRANSACTION_PREFLIGHT_OBSERVATION",
    request,
    selectorHex,
    surfaceTarget: request.to,
    surfaceTargetInfo: surface ?? null,
    nodes: resolution.nodes,
    resolvedExecutionTarget: executionTarget,
    resolvedImplementation: implementation,
    resolvedFacet: facet,
    completeResolutionPath: resolution.path,
    resolution: resolutionRecord,
    bytecodeHashes: {
      runtimeBytecodeHash: surface?.runtimeBytecodeHash ?? null,
      finalTargetBytecodeHash: finalNode?.runtimeBytecodeHash ?? null,
      facetBytecodeHash: facetNode?.runtimeBytecodeHash ?? null,
      facetBytecodeHashes: (resolution.diamond?.facets ?? []).map((f) => ({
        address: f.address,
        runtimeBytecodeHash: f.runtimeBytecodeHash,
      })),
    },
    capabilityEvidence: selected
      ? {
          sourceAddress: selected.address,
          executionRole: selected.role,
          transactionSelector: selectorHex,
          notASafetyGuarantee: true,
          reachability: "NOT_ESTABLISHED",
          dissection: selected.dissection,
        }
      : null,
    simulationObservation: {
      attempted: call !== undefined,
      outcome: !call ? "NOT_ATTEMPTED" : call.ok ? "SUCCEEDED" : call.reverted ? "REVERTED" : "FAILED",
      trusted: block.evidenceGrade,
      returnData: call?.ok ? call.value : "0x",
      ...(call && !call.ok ? { error: call.error.slice(0, 300) } : {}),
      blockTag: block.blockTag,
      evidenceOnly: true,
    },
    evidenceGrade: block.evidenceGrade,
    evidenceStatus: block.evidenceGrade ? "VERIFIED" : "UNVERIFIED",
    reason: block.evidenceGrade ? "PINNED_TRANSACTION_OBSERVATION" : `UNVERIFIED_OBSERVATION: ${block.reason}`,
    effectiveTrust: block.trustLevel,
    observationBlock: block,
    rpcObservation: observation.rpcObservation(),
    notASafetyGuarantee: true,
    reachability: "NOT_ESTABLISHED",
    limitations: [...observationLimitations, simulationLimitation],
    conclusion: null,
  };
}
