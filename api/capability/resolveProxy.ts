import { type Address, getAddress, type Hex, hexToBytes, isAddressEqual } from "viem";
import type { PinnedReader } from "../chain/createPinnedReader";
import { budgetBytecode } from "./budgetBytecode";
import { codeNode } from "./codeNode";
import { describeDiamond } from "./describeDiamond";
import { type ObservationLimits, observationLimits } from "./observationLimits";
import type { CodeNode, DiamondResolution, PathHop, ProxyType, Resolution, ResolutionStatus, Via } from "./Resolution";
import { classifyHop, eip1967Implementation, readHop } from "./readProxyHop";

export type ResolveProxyParameters = {
  reader: PinnedReader;
  address: Address;
  /** The selector a transaction would call; picks the Diamond facet. */
  selector?: Hex;
  maxDepth?: number;
  /** Bounds on facets, selectors and dissected bytes; default `observationLimits`. */
  limits?: ObservationLimits;
};

/**
 * The resolution, and the runtime codes to dissect (by lowercase address, in reading order: path first,
 * the selected facet next), within `limits.dissectedBytecodeBytes`, so nothing is fetched twice.
 */
export type ResolveProxyReturnType = { resolution: Resolution; codes: Map<string, Hex> };

/**
 * Follows proxies from `address` to the code a call executes, at the reader's pinned block: EIP-7702
 * designators, EIP-1167 clones (any PUSH width), EIP-1967 implementation and beacon slots, immutable
 * beacons, EIP-1822, the zeppelinos legacy slot, Safe singletons and EIP-2535 Diamonds (via the loupe).
 * Each hop costs one batched round trip. A path that cannot be followed to the end says why
 * (`status: "INCOMPLETE"`), never hides it; so does an observation cut short by `limits`.
 */
export async function resolveProxy({
  reader,
  address,
  selector,
  maxDepth = 5,
  limits = observationLimits,
}: ResolveProxyParameters): Promise<ResolveProxyReturnType> {
  const blockTag = reader.block.blockTag ?? "";
  const read = new Map<string, Hex>();
  const limitReasons: string[] = [];
  const nodes: CodeNode[] = [];
  const path: PathHop[] = [];
  const proxyTypes: ProxyType[] = [];
  let diamond: DiamondResolution | null = null;
  let implementation: Address | null = null;
  let facet: Address | null = null;
  let current = getAddress(address);

  const finish = (status: ResolutionStatus, reason: string, executionTarget: Address): ResolveProxyReturnType => {
    const budget = budgetBytecode(read, limits.dissectedBytecodeBytes);
    if (budget.leftOutCount > 0) {
      limitReasons.push(
        `BYTECODE_BUDGET_EXCEEDED: ${budget.leftOutCount} codes (${budget.leftOutBytes} bytes) past the ` +
          `${limits.dissectedBytecodeBytes}-byte budget were not dissected`,
      );
    }
    // A limit reached turns a complete resolution incomplete, its code first; any other reason stays first.
    const limited = status === "COMPLETE" && limitReasons.length > 0;
    return {
      resolution: {
        status: limited ? "INCOMPLETE" : status,
        resolutionComplete: !limited && status !== "INCOMPLETE",
        proxyType: proxyTypes[0] ?? "NONE",
        proxyTypes: proxyTypes.length > 0 ? proxyTypes : ["NONE"],
        reason: (limited ? [...limitReasons, reason] : [reason, ...limitReasons]).join("; "),
        path,
        nodes,
        diamond,
        executionTarget,
        implementation,
        facet,
      },
      codes: budget.codes,
    };
  };
  const hop = (to: Address, via: Via) => {
    path.push({ from: current, to, via, blockTag });
  };

  for (let depth = 0; depth <= maxDepth; depth++) {
    if (depth === maxDepth) return finish("INCOMPLETE", `MAX_DEPTH_REACHED: stopped after ${maxDepth} hops at ${current}`, current);
    const facts = await readHop(reader, current, selector, limits);
    if (!facts.code.ok) return finish("INCOMPLETE", `READ_FAILED: eth_getCode of ${current} failed (${facts.code.error})`, current);
    const code = facts.code.value;
    read.set(current.toLowerCase(), code);
    const bytes = hexToBytes(code);
    nodes.push(codeNode(current, bytes));
    const previous = proxyTypes.at(-1);
    if (previous === "EIP1967_PROXY" && facts.proxiableUUID === eip1967Implementation) proxyTypes[proxyTypes.length - 1] = "EIP1967_UUPS";

    if (bytes.length === 0) {
      if (depth === 0) return finish("NOT_A_CONTRACT", "NO_CODE: the address holds no code at the pinned block", current);
      return finish("INCOMPLETE", `IMPLEMENTATION_HAS_NO_CODE: ${current} holds no code at the pinned block`, current);
    }

    const next = await classifyHop(reader, current, bytes, facts);
    if (next.kind === "terminal") {
      if (next.diamond) {
        proxyTypes.push("EIP2535_DIAMOND");
        const described = await describeDiamond({ reader, loupe: next.diamond, loupeAnswers: facts, selector, read, limits });
        diamond = described.diamond;
        limitReasons.push(...described.limitReasons);
        if (selector && diamond.selectedFacet) {
          facet = diamond.selectedFacet;
          hop(facet, "EIP2535_FACETS_SELECTOR");
          return finish("COMPLETE", `EIP2535_DIAMOND: selector ${selector} is served by facet ${facet}`, facet);
        }
        if (selector)
          return finish(
            "INCOMPLETE",
            `SELECTOR_NOT_IN_DIAMOND: no facet holds ${selector}; the call reaches the Diamond's fallback`,
            current,
          );
        return finish("COMPLETE", `EIP2535_DIAMOND: ${diamond.facetCount} facets, ${diamond.selectorCount} selectors`, current);
      }
      if (next.unresolvedDelegatecall && depth === 0) {
        proxyTypes.push("UNKNOWN_DELEGATING");
        return finish(
          "INCOMPLETE",
          "DELEGATECALL_TARGET_UNRESOLVED: the code delegatecalls a target that is in no known proxy slot",
          current,
        );
      }
      return finish(
        "COMPLETE",
        depth === 0 ? "NOT_A_PROXY: no known proxy pattern" : `RESOLVED: ${proxyTypes.join(" -> ")} to ${current}`,
        current,
      );
    }

    proxyTypes.push(next.type);
    if (next.beacon) {
      hop(next.beacon, next.via);
      current = next.beacon;
      if (!read.has(current.toLowerCase())) {
        const [beaconCode] = await reader.read([{ kind: "code", address: current }]);
        if (beaconCode?.ok) {
          read.set(current.toLowerCase(), beaconCode.value);
          nodes.push(codeNode(current, hexToBytes(beaconCode.value)));
        }
      }
      hop(next.to, "BEACON_IMPLEMENTATION_CALL");
    } else {
      hop(next.to, next.via);
    }
    if (path.some((p, i) => i < path.length - 1 && isAddressEqual(p.from, next.to))) {
      return finish("INCOMPLETE", `RESOLUTION_CYCLE: ${next.to} was already on the path`, next.to);
    }
    if (next.type !== "EIP7702_DELEGATED_ACCOUNT") implementation = next.to;
    current = next.to;
  }
  return finish("INCOMPLETE", "MAX_DEPTH_REACHED", current);
}
