import type { ObservationBlock } from "../../api/chain/ObservationBlock";

/** Block `n` pinned by a trusted primary at evidence grade (a hash made from `n`), for tests without a chain. */
export function pinnedBlock(n: number, overrides: Partial<ObservationBlock> = {}): ObservationBlock {
  return {
    status: "PINNED",
    chainId: 8453,
    network: "eip155:8453",
    blockNumber: n,
    blockHash: `0x${n.toString(16).padStart(64, "0")}`,
    blockTag: `0x${n.toString(16)}`,
    trustLevel: "TRUSTED_PRIMARY",
    evidenceGrade: true,
    providerName: "primary",
    agreement: 1,
    sampled: 1,
    reason: null,
    retrievedAt: new Date(0).toISOString(),
    originalRetrievalTime: new Date(0).toISOString(),
    ...overrides,
  };
}
