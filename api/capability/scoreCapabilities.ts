import type { CapabilityRating, Deduction, DeductionType } from "./AuditResponse";
import type { ContractObservation } from "./observeContract";
import { ProxyType } from "./Resolution";

/**
 * Points each observed pattern takes off the coverage index (100 = none of the selected patterns seen).
 * Each type counts once however often it occurs. Published in the README; a weight is a statement of how
 * much the pattern widens what privileged parties or code can do, never a safety verdict.
 */
export const deductionWeights: Record<DeductionType, number> = {
  MINT_SELECTOR: 15,
  BURN_SELECTOR: 10,
  PAUSE_SELECTOR: 10,
  BLACKLIST_SELECTOR: 15,
  OWNERSHIP_CHANGE_SELECTOR: 5,
  ROLE_CHANGE_SELECTOR: 5,
  UPGRADE_SELECTOR: 15,
  FEE_SETTER_SELECTOR: 10,
  LIMIT_SETTER_SELECTOR: 10,
  DELEGATECALL_OPCODE: 10,
  SELFDESTRUCT_OPCODE: 20,
  CALLCODE_OPCODE: 10,
  CREATE_OPCODE: 3,
  CREATE2_OPCODE: 3,
  PROXY_SLOT_WRITE: 10,
  UPGRADEABLE_PROXY: 15,
  EIP7702_DELEGATED_ACCOUNT: 10,
  INCOMPLETE_RESOLUTION: 20,
};

export type CapabilityScore = {
  capabilityScore: number | null;
  capabilityRating: CapabilityRating;
  maxScore: 100;
  deductions: Deduction[];
};

/** Rating bands of the coverage index, highest first. */
export const ratingBands = [
  { min: 80, rating: "MINIMAL_SURFACE" },
  { min: 60, rating: "LIMITED_SURFACE" },
  { min: 40, rating: "SUBSTANTIAL_SURFACE" },
  { min: 0, rating: "EXTENSIVE_SURFACE" },
] as const;

/** Every proxy kind whose executing code can be replaced: all but clones, 7702 accounts and the unknown. */
const upgradeableProxyTypes = new Set<string>(
  ProxyType.exclude(["EIP7702_DELEGATED_ACCOUNT", "EIP1167_CLONE", "UNKNOWN_DELEGATING", "NONE"]).options,
);

/**
 * The coverage index of one observation: 100 minus the weight of every distinct pattern observed on the
 * resolved code, floored at 0. Null only with `UNVERIFIED`, when the block is not evidence grade. An
 * address that holds no code shows no pattern: 100 with `NOT_A_CONTRACT` (observed, not a verdict).
 */
export function scoreCapabilities(observation: ContractObservation): CapabilityScore {
  if (!observation.block.evidenceGrade) return { capabilityScore: null, capabilityRating: "UNVERIFIED", maxScore: 100, deductions: [] };
  if (observation.resolution.status === "NOT_A_CONTRACT")
    return { capabilityScore: 100, capabilityRating: "NOT_A_CONTRACT", maxScore: 100, deductions: [] };

  const found = new Map<DeductionType, { occurrences: number; sources: Set<string>; evidence: string }>();
  const note = (type: DeductionType, source: string, evidence: string) => {
    const entry = found.get(type) ?? { occurrences: 0, sources: new Set<string>(), evidence };
    entry.occurrences += 1;
    entry.sources.add(source);
    found.set(type, entry);
  };
  for (const { address, dissection } of observation.dissected) {
    for (const capability of dissection.capabilities) note(capability.type, address, capability.evidence);
  }
  const { resolution } = observation;
  for (const proxyType of resolution.proxyTypes) {
    if (upgradeableProxyTypes.has(proxyType))
      note("UPGRADEABLE_PROXY", resolution.nodes[0]?.address ?? "", `${proxyType}: the executing code can be replaced`);
    if (proxyType === "EIP7702_DELEGATED_ACCOUNT")
      note("EIP7702_DELEGATED_ACCOUNT", resolution.nodes[0]?.address ?? "", "EOA code is an EIP-7702 delegation designator");
  }
  if (resolution.status === "INCOMPLETE") note("INCOMPLETE_RESOLUTION", resolution.nodes.at(-1)?.address ?? "", resolution.reason);

  const deductions = [...found].map(
    ([type, f]): Deduction => ({
      type,
      points: deductionWeights[type],
      occurrences: f.occurrences,
      sources: [...f.sources],
      evidence: f.evidence,
    }),
  );
  const capabilityScore = Math.max(0, 100 - deductions.reduce((sum, d) => sum + d.points, 0));
  const capabilityRating = ratingBands.find((b) => capabilityScore >= b.min)?.rating ?? "EXTENSIVE_SURFACE";
  return { capabilityScore, capabilityRating, maxScore: 100, deductions };
}
