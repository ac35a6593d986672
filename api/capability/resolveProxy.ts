import { type Address, bytesToHex, encodeFunctionData, getAddress, type Hex, hexToBytes, isAddressEqual, zeroAddress } from "viem";
import { DiamondLoupeAbi, diamondLoupeInterfaceId } from "../../abis/DiamondLoupeAbi";
import { ProxyProbeAbi } from "../../abis/ProxyProbeAbi";
import type { PinnedRead, PinnedReader, PinnedReadResult } from "../chain/createPinnedReader";
import { budgetBytecode } from "./budgetBytecode";
import { codeNode } from "./codeNode";
import { type DecodeLoupeFacetsReturnType, decodeLoupeFacets } from "./decodeLoupeFacets";
import { describeDiamond } from "./describeDiamond";
import { disassemble } from "./disassemble";
import { knownProxySlots } from "./knownProxySlots";
import { type ObservationLimits, observationLimits } from "./observationLimits";
import { parseDelegationDesignator } from "./parseDelegationDesignator";
import { parseMinimalProxy } from "./parseMinimalProxy";
import type { CodeNode, DiamondResolution, PathHop, ProxyType, Resolution, ResolutionStatus, Via } from "./Resolution";

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

const slot = (name: (typeof knownProxySlots)[number]["name"]) => {
  const found = knownProxySlots.find((s) => s.name === name);
  if (!found) throw new Error(`unknown proxy slot ${name}`);
  return found.slot as Hex;
};
const eip1967Implementation = slot("EIP1967_IMPLEMENTATION");
const hopSlots = [
  eip1967Implementation,
  slot("EIP1967_BEACON"),
  slot("EIP1967_ADMIN"),
  slot("EIP1822_PROXIABLE"),
  slot("ZEPPELINOS_IMPLEMENTATION"),
  "0x0" as Hex,
] as const;
const callData = {
  masterCopy: encodeFunctionData({ abi: ProxyProbeAbi, functionName: "masterCopy" }),
  implementation: encodeFunctionData({ abi: ProxyProbeAbi, functionName: "implementation" }),
  proxiableUUID: encodeFunctionData({ abi: ProxyProbeAbi, functionName: "proxiableUUID" }),
  facets: encodeFunctionData({ abi: DiamondLoupeAbi, functionName: "facets" }),
  supportsLoupe: encodeFunctionData({ abi: DiamondLoupeAbi, functionName: "supportsInterface", args: [diamondLoupeInterfaceId] }),
};

/** Embedded addresses asked for `implementation()` when a delegating contract has no proxy slot. */
const maxImmutableBeaconCandidates = 8;

/** What one batch learns about one address: its code, the proxy slots, and the self-describing calls. */
type HopFacts = {
  code: PinnedReadResult;
  slots: (Address | null)[];
  masterCopy: Address | null;
  proxiableUUID: Hex | null;
  loupe: DecodeLoupeFacetsReturnType | null;
  facetAddress: Address | null;
  facetAddressFailed: boolean;
  supportsLoupe: boolean;
};

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

type NextHop =
  | { kind: "hop"; type: ProxyType; via: Via; to: Address; beacon?: Address }
  | { kind: "terminal"; diamond?: DecodeLoupeFacetsReturnType; unresolvedDelegatecall?: boolean };

async function classifyHop(reader: PinnedReader, address: Address, bytes: Uint8Array, facts: HopFacts): Promise<NextHop> {
  const delegate = parseDelegationDesignator(bytes);
  if (delegate) return { kind: "hop", type: "EIP7702_DELEGATED_ACCOUNT", via: "EIP7702_DELEGATION_DESIGNATOR", to: delegate };
  const clone = parseMinimalProxy(bytes);
  if (clone) return { kind: "hop", type: "EIP1167_CLONE", via: "EIP1167_EMBEDDED_ADDRESS", to: clone.implementation };
  if (facts.loupe && facts.loupe.facets.length > 0) return { kind: "terminal", diamond: facts.loupe };

  const [impl1967, beacon1967, admin1967, impl1822, implZeppelinos, slot0] = facts.slots;
  if (impl1967)
    return { kind: "hop", type: admin1967 ? "EIP1967_TRANSPARENT" : "EIP1967_PROXY", via: "EIP1967_IMPLEMENTATION_SLOT", to: impl1967 };
  if (beacon1967) {
    const to = await beaconImplementation(reader, beacon1967);
    if (to) return { kind: "hop", type: "EIP1967_BEACON", via: "EIP1967_BEACON_SLOT", to, beacon: beacon1967 };
  }
  if (impl1822) return { kind: "hop", type: "EIP1822_PROXIABLE", via: "EIP1822_PROXIABLE_SLOT", to: impl1822 };
  if (implZeppelinos) return { kind: "hop", type: "ZEPPELINOS_PROXY", via: "ZEPPELINOS_IMPLEMENTATION_SLOT", to: implZeppelinos };
  if (slot0 && facts.masterCopy && isAddressEqual(slot0, facts.masterCopy)) {
    return { kind: "hop", type: "SAFE_PROXY", via: "SAFE_SINGLETON_SLOT", to: slot0 };
  }

  const disassembly = disassemble(bytes);
  if ((disassembly.opcodeCounts[0xf4] ?? 0) === 0) return { kind: "terminal" };
  // A delegating contract with no proxy slot: an immutable beacon is one of its embedded addresses.
  const candidates = embeddedAddresses(bytes, address, maxImmutableBeaconCandidates);
  const answers = await reader.read(candidates.map((to): PinnedRead => ({ kind: "call", to, data: callData.implementation })));
  for (const [i, candidate] of candidates.entries()) {
    const answer = answers[i];
    const to = answer?.ok ? wordToAddress(answer.value) : null;
    if (to) return { kind: "hop", type: "IMMUTABLE_BEACON_PROXY", via: "IMMUTABLE_BEACON_ADDRESS", to, beacon: candidate };
  }
  return { kind: "terminal", unresolvedDelegatecall: true };
}

async function readHop(reader: PinnedReader, address: Address, selector: Hex | undefined, limits: ObservationLimits): Promise<HopFacts> {
  const reads: PinnedRead[] = [
    { kind: "code", address },
    ...hopSlots.map((s): PinnedRead => ({ kind: "storage", address, slot: s })),
    { kind: "call", to: address, data: callData.masterCopy },
    { kind: "call", to: address, data: callData.proxiableUUID },
    { kind: "call", to: address, data: callData.facets },
    { kind: "call", to: address, data: callData.supportsLoupe },
  ];
  if (selector) {
    reads.push({
      kind: "call",
      to: address,
      data: encodeFunctionData({ abi: DiamondLoupeAbi, functionName: "facetAddress", args: [selector] }),
    });
  }
  const results = await reader.read(reads);
  const [code, ...rest] = results;
  const slotResults = rest.slice(0, hopSlots.length);
  const [masterCopy, proxiableUUID, facets, supportsLoupe, facetAddress] = rest.slice(hopSlots.length);
  return {
    code: code ?? { ok: false, error: "no answer", reverted: false },
    slots: slotResults.map((r) => (r?.ok ? wordToAddress(r.value) : null)),
    masterCopy: masterCopy?.ok ? wordToAddress(masterCopy.value) : null,
    proxiableUUID: proxiableUUID?.ok && proxiableUUID.value.length === 66 ? proxiableUUID.value : null,
    loupe: facets?.ok
      ? decodeLoupeFacets({ data: facets.value, maxFacets: limits.diamondFacets, maxSelectors: limits.loupeSelectors })
      : null,
    facetAddress: facetAddress?.ok ? wordToAddress(facetAddress.value) : null,
    facetAddressFailed: selector !== undefined && !facetAddress?.ok,
    supportsLoupe: supportsLoupe?.ok === true && supportsLoupe.value.length === 66 && BigInt(supportsLoupe.value) === 1n,
  };
}

async function beaconImplementation(reader: PinnedReader, beacon: Address): Promise<Address | null> {
  const [result] = await reader.read([{ kind: "call", to: beacon, data: callData.implementation }]);
  return result?.ok ? wordToAddress(result.value) : null;
}

/** A 32-byte word holding an address (upper 12 bytes zero), or null for zero or anything else. */
function wordToAddress(word: Hex): Address | null {
  if (word.length !== 66 || !/^0x0{24}/.test(word)) return null;
  const address = getAddress(`0x${word.slice(26)}`);
  return isAddressEqual(address, zeroAddress) ? null : address;
}

/**
 * The first `max` distinct addresses other than `self` embedded in real instructions: PUSH20 operands, and
 * PUSH32 operands whose upper 12 bytes are zero (solc places immutables as PUSH32). One pass, stopping early.
 */
function embeddedAddresses(bytes: Uint8Array, self: Address, max: number): Address[] {
  const seen = new Set<string>([self.toLowerCase()]);
  const found: Address[] = [];
  for (let pc = 0; pc < bytes.length && found.length < max; pc++) {
    const op = bytes[pc] as number;
    const width = op === 0x73 ? 20 : op === 0x7f && bytes.subarray(pc + 1, pc + 13).every((b) => b === 0) ? 20 : 0;
    const start = op === 0x7f ? pc + 13 : pc + 1;
    if (width > 0 && start + width <= bytes.length) {
      const hex = bytesToHex(bytes.subarray(start, start + width));
      // Small numbers (amounts, precompiles) are constants, not addresses: real ones use the top 8 bytes.
      if (BigInt(hex) >= 1n << 96n && !seen.has(hex)) {
        seen.add(hex);
        found.push(getAddress(hex));
      }
    }
    if (op >= 0x60 && op <= 0x7f) pc += op - 0x5f;
  }
  return found;
}
