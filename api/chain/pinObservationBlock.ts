import type { ObservationBlock } from "./ObservationBlock";
import { type ProviderHead, probeProvider, type ReadHead } from "./probeProvider";
import type { RpcProvider } from "./providers";

export type PinObservationBlockParameters = {
  providers: readonly RpcProvider[];
  chainId: number;
  /** Pin this block instead of the lowest head (providers that do not have it yet are not sampled). */
  blockNumber?: number;
  now?: () => Date;
  /** How a provider's head (or a block by tag) is read; the status page passes one shared for a second. */
  readHead?: ReadHead;
};

type Head = Extract<ProviderHead, { available: true }>;

/** RPC reads one pin asks of each provider at most: its head, and the pinned block when its head is another. */
export const pinReadsPerProvider = 2;

/**
 * Pins one block before any state-bearing read: every provider is asked for its head; the pinned
 * number is the lowest head (or the requested block); providers at another head are asked for that
 * block's hash. Evidence grade
 * needs a trusted primary, or at least two public providers (and a majority of them) agreeing, and no
 * provider answering a different hash. A conflict or too few answers is `UNVERIFIED`, never a guess.
 */
export async function pinObservationBlock({
  providers,
  chainId,
  blockNumber,
  now = () => new Date(),
  readHead = probeProvider,
}: PinObservationBlockParameters): Promise<ObservationBlock> {
  const retrievedAt = now().toISOString();
  const unpinned = (reason: string, sampled = 0): ObservationBlock => ({
    status: "UNPINNED",
    chainId,
    network: `eip155:${chainId}`,
    blockNumber: null,
    blockHash: null,
    blockTag: null,
    trustLevel: "UNVERIFIED",
    evidenceGrade: false,
    providerName: null,
    agreement: 0,
    sampled,
    reason,
    retrievedAt,
    originalRetrievalTime: retrievedAt,
  });

  const heads = (await Promise.all(providers.map((p) => readHead(p)))).filter((h): h is Head => h.available);
  if (heads.length === 0) return unpinned("NO_PROVIDER_ANSWERED");
  if (blockNumber !== undefined && blockNumber > Math.max(...heads.map((h) => h.number))) {
    return unpinned("REQUESTED_BLOCK_NOT_YET_MINED", heads.length);
  }
  const pinned = blockNumber ?? Math.min(...heads.map((h) => h.number));
  const atPinned = (
    await Promise.all(heads.map((h) => (h.number === pinned ? h : readHead(h.provider, `0x${pinned.toString(16)}`))))
  ).filter((h): h is Head => h.available);
  const primary = atPinned.find((h) => h.provider.trusted);
  const chosen = primary ?? atPinned[0];
  if (!chosen) return unpinned("NO_PROVIDER_ANSWERED", heads.length);
  const hashes = new Set(atPinned.map((h) => h.hash));
  const agreement = atPinned.filter((h) => h.hash === chosen.hash).length;
  const publicConfigured = providers.filter((p) => !p.trusted).length;
  const base = {
    status: "PINNED" as const,
    chainId,
    network: `eip155:${chainId}`,
    blockNumber: pinned,
    blockHash: chosen.hash,
    blockTag: `0x${pinned.toString(16)}`,
    providerName: chosen.provider.name,
    agreement,
    sampled: atPinned.length,
    retrievedAt,
    originalRetrievalTime: retrievedAt,
  };
  if (hashes.size > 1) return { ...base, trustLevel: "UNVERIFIED", evidenceGrade: false, reason: "PROVIDERS_DISAGREE_ON_BLOCK_HASH" };
  if (primary) return { ...base, trustLevel: "TRUSTED_PRIMARY", evidenceGrade: true, reason: null };
  if (agreement >= 2 && agreement > publicConfigured / 2)
    return { ...base, trustLevel: "PUBLIC_QUORUM", evidenceGrade: true, reason: null };
  return { ...base, trustLevel: "UNVERIFIED", evidenceGrade: false, reason: "NO_PUBLIC_QUORUM" };
}
