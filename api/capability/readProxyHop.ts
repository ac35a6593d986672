import { type Address, bytesToHex, encodeFunctionData, getAddress, type Hex, isAddressEqual, zeroAddress } from "viem";
import { DiamondLoupeAbi, diamondLoupeInterfaceId } from "../../abis/DiamondLoupeAbi";
import { ProxyProbeAbi } from "../../abis/ProxyProbeAbi";
import type { PinnedRead, PinnedReader, PinnedReadResult } from "../chain/createPinnedReader";
import { type DecodeLoupeFacetsReturnType, decodeLoupeFacets } from "./decodeLoupeFacets";
import { disassemble } from "./disassemble";
import { knownProxySlots } from "./knownProxySlots";
import type { ObservationLimits } from "./observationLimits";
import { parseDelegationDesignator } from "./parseDelegationDesignator";
import { parseMinimalProxy } from "./parseMinimalProxy";
import type { ProxyType, Via } from "./Resolution";

// One hop of resolveProxy: what one batch reads of an address, and where that says a call goes next.

const slot = (name: (typeof knownProxySlots)[number]["name"]) => {
  const found = knownProxySlots.find((s) => s.name === name);
  if (!found) throw new Error(`unknown proxy slot ${name}`);
  return found.slot as Hex;
};
export const eip1967Implementation = slot("EIP1967_IMPLEMENTATION");
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
export type HopFacts = {
  code: PinnedReadResult;
  slots: (Address | null)[];
  masterCopy: Address | null;
  proxiableUUID: Hex | null;
  loupe: DecodeLoupeFacetsReturnType | null;
  facetAddress: Address | null;
  facetAddressFailed: boolean;
  supportsLoupe: boolean;
};

export type NextHop =
  | { kind: "hop"; type: ProxyType; via: Via; to: Address; beacon?: Address }
  | { kind: "terminal"; diamond?: DecodeLoupeFacetsReturnType; unresolvedDelegatecall?: boolean };

export async function classifyHop(reader: PinnedReader, address: Address, bytes: Uint8Array, facts: HopFacts): Promise<NextHop> {
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

export async function readHop(
  reader: PinnedReader,
  address: Address,
  selector: Hex | undefined,
  limits: ObservationLimits,
): Promise<HopFacts> {
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
