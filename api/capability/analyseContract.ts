import type { Address, Hex } from "viem";
import type { PinnedReader } from "../chain/createPinnedReader";
import type { RpcObservation } from "../chain/ObservationBlock";
import type { ExecutionRole } from "./AuditResponse";
import type { Dissection } from "./Dissection";
import { dissectBytecode } from "./dissectBytecode";
import type { CodeNode, Resolution } from "./Resolution";
import { resolveProxy } from "./resolveProxy";

export type DissectedCode = { address: Address; role: ExecutionRole; dissection: Dissection };

/** What one observation of an address at one block found: immutable once made, so requests can share it. */
export type ContractAnalysis = {
  resolution: Resolution;
  /** Every piece of code on the resolution path (and each Diamond facet) within the limits, dissected. */
  dissected: DissectedCode[];
  /** The reads that made it. */
  reads: RpcObservation;
};

/**
 * Resolves `address` through its proxies with `reader` (bound to the pinned block) and dissects every code
 * the resolution kept with `dissect` (a `DissectionCache`'s, across blocks), reusing the bytes it read. Roles and nodes are looked up in maps built once, so the
 * work is linear in the codes observed.
 */
export async function analyseContract(
  reader: PinnedReader,
  address: Address,
  selector?: Hex,
  dissect: (code: Hex) => Dissection = dissectBytecode,
): Promise<ContractAnalysis> {
  const { resolution, codes } = await resolveProxy({ reader, address, selector });
  const facets = resolution.diamond?.facets ?? [];
  const nodes = new Map<string, CodeNode>();
  for (const node of [...resolution.nodes, ...facets]) nodes.set(node.address.toLowerCase(), node);

  const roles = new Map<string, ExecutionRole>();
  for (const [i, node] of resolution.nodes.entries()) roles.set(node.address.toLowerCase(), i === 0 ? "SURFACE_TARGET" : "IMPLEMENTATION");
  for (const hop of resolution.path) {
    if (hop.via === "EIP7702_DELEGATION_DESIGNATOR") roles.set(hop.to.toLowerCase(), "DELEGATE");
    if (hop.via === "EIP1967_BEACON_SLOT" || hop.via === "IMMUTABLE_BEACON_ADDRESS") roles.set(hop.to.toLowerCase(), "BEACON");
  }
  for (const facet of facets) {
    roles.set(facet.address.toLowerCase(), resolution.facet === facet.address ? "SELECTED_DIAMOND_FACET" : "DIAMOND_FACET");
  }

  const dissected: DissectedCode[] = [];
  for (const [key, role] of roles) {
    const code = codes.get(key);
    if (code === undefined) continue;
    dissected.push({ address: nodes.get(key)?.address ?? (key as Address), role, dissection: dissect(code) });
  }
  return { resolution, dissected, reads: reader.observation() };
}
