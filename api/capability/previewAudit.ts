import type { AuditResponse } from "./AuditResponse";

/**
 * The free tier's answer for an address outside the demo allowlist: high-level indicators only (no score,
 * deductions or evidence), and where the full observation is sold.
 */
export function previewAudit(audit: AuditResponse, upgrade: { paidRoute: string; x402PriceUsd: number; plans: string }) {
  const types = new Set<string>(audit.detectedCapabilities);
  const proxied = audit.resolution.proxyType !== "NONE";
  return {
    status: "PREVIEW" as const,
    address: audit.address,
    chainId: audit.chainId,
    network: audit.network,
    notASafetyGuarantee: true as const,
    isContract: audit.isContract,
    capabilityRating: audit.capabilityRating,
    evidenceStatus: audit.evidenceStatus,
    indicators: {
      proxy: proxied,
      proxyType: audit.resolution.proxyType,
      resolutionComplete: audit.resolution.resolutionComplete,
      mintSelector: types.has("MINT_SELECTOR"),
      pauseSelector: types.has("PAUSE_SELECTOR"),
      blacklistSelector: types.has("BLACKLIST_SELECTOR"),
      upgradeSelector: types.has("UPGRADE_SELECTOR"),
      ownershipOrRoleControl: types.has("OWNERSHIP_CHANGE_SELECTOR") || types.has("ROLE_CHANGE_SELECTOR"),
      delegatecallOpcode: types.has("DELEGATECALL_OPCODE"),
      selfdestructOpcode: types.has("SELFDESTRUCT_OPCODE"),
    },
    observationBlock: { blockNumber: audit.observationBlock.blockNumber, trustLevel: audit.observationBlock.trustLevel },
    upgrade: {
      message:
        "The full observation (coverage index with its deduction breakdown, every capability with evidence, resolution path, bytecode hashes and RPC provenance) is a paid call.",
      ...upgrade,
    },
    limitations: audit.limitations,
  };
}
