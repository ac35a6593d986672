import type { Address, Hex } from "viem";
import { createPinnedReader, type PinnedReader } from "../chain/createPinnedReader";
import type { ObservationBlock, RpcObservation } from "../chain/ObservationBlock";
import { pinObservationBlock } from "../chain/pinObservationBlock";
import type { RpcProvider } from "../chain/providers";
import type { ExecutionRole } from "./AuditResponse";
import type { Dissection } from "./Dissection";
import { dissectBytecode } from "./dissectBytecode";
import type { Resolution } from "./Resolution";
import { resolveProxy } from "./resolveProxy";

export type DissectedCode = { address: Address; role: ExecutionRole; dissection: Dissection };

export type ContractObservation = {
  block: ObservationBlock;
  reader: PinnedReader;
  resolution: Resolution;
  /** Every piece of code on the resolution path (and each Diamond facet), dissected. */
  dissected: DissectedCode[];
  rpcObservation: () => RpcObservation;
};

export type ObserveContractParameters = {
  providers: readonly RpcProvider[];
  chainId: number;
  address: Address;
  selector?: Hex;
  blockNumber?: number;
};

/** Why no observation could be made at all: the caller answers 503 (or 400 for a future block). */
export type ObservationFailure = {
  ok: false;
  reason: "NO_PROVIDER_ANSWERED" | "REQUESTED_BLOCK_NOT_YET_MINED" | "READ_FAILED";
  block: ObservationBlock;
};

/**
 * Pins one block, resolves `address` through its proxies at that block, and dissects every code on the
 * way, reusing the bytes the resolution already read: the common core of audit, score and preflight.
 */
export async function observeContract(
  params: ObserveContractParameters,
): Promise<{ ok: true; observation: ContractObservation } | ObservationFailure> {
  const block = await pinObservationBlock({ providers: params.providers, chainId: params.chainId, blockNumber: params.blockNumber });
  if (block.status !== "PINNED") {
    return {
      ok: false,
      reason: block.reason === "REQUESTED_BLOCK_NOT_YET_MINED" ? "REQUESTED_BLOCK_NOT_YET_MINED" : "NO_PROVIDER_ANSWERED",
      block,
    };
  }
  const reader = createPinnedReader(block, params.providers);
  const { resolution, codes } = await resolveProxy({ reader, address: params.address, selector: params.selector });
  if (resolution.status === "INCOMPLETE" && resolution.reason.startsWith("READ_FAILED") && resolution.nodes.length === 0) {
    return { ok: false, reason: "READ_FAILED", block };
  }

  const roles = new Map<string, ExecutionRole>();
  for (const [i, node] of resolution.nodes.entries()) roles.set(node.address.toLowerCase(), i === 0 ? "SURFACE_TARGET" : "IMPLEMENTATION");
  for (const hop of resolution.path) {
    if (hop.via === "EIP7702_DELEGATION_DESIGNATOR") roles.set(hop.to.toLowerCase(), "DELEGATE");
    if (hop.via === "EIP1967_BEACON_SLOT" || hop.via === "IMMUTABLE_BEACON_ADDRESS") roles.set(hop.to.toLowerCase(), "BEACON");
  }
  for (const facet of resolution.diamond?.facets ?? []) {
    roles.set(facet.address.toLowerCase(), resolution.facet === facet.address ? "SELECTED_DIAMOND_FACET" : "DIAMOND_FACET");
  }

  const dissected: DissectedCode[] = [];
  for (const [address, role] of roles) {
    const code = codes.get(address);
    if (code === undefined) continue;
    const node = [...resolution.nodes, ...(resolution.diamond?.facets ?? [])].find((n) => n.address.toLowerCase() === address);
    dissected.push({ address: node?.address ?? (address as Address), role, dissection: dissectBytecode(code) });
  }
  return { ok: true, observation: { block, reader, resolution, dissected, rpcObservation: () => reader.observation() } };
}
