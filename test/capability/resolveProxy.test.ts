import type { Address } from "viem";
import { describe, expect, test } from "vitest";
import { resolveProxy } from "../../api/capability/resolveProxy";
import { createPinnedReader } from "../../api/chain/createPinnedReader";
import { pinObservationBlock } from "../../api/chain/pinObservationBlock";
import { devnetProvider, testManifest } from "../support/devnet";

const manifest = testManifest();
const devnet = devnetProvider(manifest.rpcUrl);
const named = (name: string): Address => {
  const address = manifest.contracts[name] ?? manifest.tokens[name]?.address;
  if (!address) throw new Error(`no fixture ${name} in the manifest`);
  return address;
};

async function resolve(name: string, selector?: `0x${string}`) {
  const reader = createPinnedReader(await pinObservationBlock({ providers: [devnet], chainId: 8453 }), [devnet]);
  const { resolution } = await resolveProxy({ reader, address: named(name), selector });
  return { resolution, observation: reader.observation() };
}

describe("resolveProxy on the devnet fixtures", () => {
  test.each([
    ["transparentProxy", "EIP1967_TRANSPARENT", "EIP1967_IMPLEMENTATION_SLOT", "transparentProxyImplementation"],
    ["uupsProxy", "EIP1967_UUPS", "EIP1967_IMPLEMENTATION_SLOT", "uupsImplementation"],
    ["eip1822Proxy", "EIP1822_PROXIABLE", "EIP1822_PROXIABLE_SLOT", "eip1822Implementation"],
    ["USDC", "ZEPPELINOS_PROXY", "ZEPPELINOS_IMPLEMENTATION_SLOT", "usdcImplementation"],
    ["clone", "EIP1167_CLONE", "EIP1167_EMBEDDED_ADDRESS", "cloneImplementation"],
    ["cloneWithImmutableArgs", "EIP1167_CLONE", "EIP1167_EMBEDDED_ADDRESS", "cloneImplementation"],
    ["cloneShortPush", "EIP1167_CLONE", "EIP1167_EMBEDDED_ADDRESS", "cloneShortPushImplementation"],
    ["safeProxy", "SAFE_PROXY", "SAFE_SINGLETON_SLOT", "safeSingleton"],
    ["delegatedAccount", "EIP7702_DELEGATED_ACCOUNT", "EIP7702_DELEGATION_DESIGNATOR", "delegate7702"],
  ] as const)("default: %s is %s and resolves to %s", async (name, proxyType, via, target) => {
    const { resolution } = await resolve(name);
    expect(resolution.status).toBe("COMPLETE");
    expect(resolution.proxyType).toBe(proxyType);
    expect(resolution.path[0]).toMatchObject({ from: named(name), via });
    expect(resolution.executionTarget).toBe(named(target));
    expect(resolution.nodes.map((n) => n.address)).toEqual([named(name), named(target)]);
    expect(resolution.nodes.every((n) => n.bytecodeAvailable && /^sha256:[0-9a-f]{64}$/.test(n.runtimeBytecodeHash ?? ""))).toBe(true);
  });

  test("behavior: beacon proxies go through the beacon, by slot or by immutable", async () => {
    for (const [name, type, via] of [
      ["beaconProxy", "EIP1967_BEACON", "EIP1967_BEACON_SLOT"],
      ["immutableBeaconProxy", "IMMUTABLE_BEACON_PROXY", "IMMUTABLE_BEACON_ADDRESS"],
    ] as const) {
      const { resolution } = await resolve(name);
      expect(resolution).toMatchObject({ status: "COMPLETE", proxyType: type, executionTarget: named("beaconImplementation") });
      expect(resolution.path.map((p) => [p.from, p.to, p.via])).toEqual([
        [named(name), named("beacon"), via],
        [named("beacon"), named("beaconImplementation"), "BEACON_IMPLEMENTATION_CALL"],
      ]);
    }
  });

  test("behavior: a 7702 account delegating to a proxy is followed through both", async () => {
    const { resolution } = await resolve("delegatedAccountToProxy");
    expect(resolution.proxyTypes).toEqual(["EIP7702_DELEGATED_ACCOUNT", "EIP1967_TRANSPARENT"]);
    expect(resolution.path.map((p) => p.to)).toEqual([named("transparentProxy"), named("transparentProxyImplementation")]);
    expect(resolution.executionTarget).toBe(named("transparentProxyImplementation"));
  });

  test("behavior: the Diamond with a selector selects the facet that holds it, in at most 3 round trips", async () => {
    const { resolution, observation } = await resolve("diamond", "0x40c10f19");
    expect(resolution).toMatchObject({
      status: "COMPLETE",
      proxyType: "EIP2535_DIAMOND",
      facet: named("diamondMintFacet"),
      executionTarget: named("diamondMintFacet"),
    });
    expect(resolution.path).toEqual([
      { from: named("diamond"), to: named("diamondMintFacet"), via: "EIP2535_FACETS_SELECTOR", blockTag: observation.pinnedBlockTag },
    ]);
    const diamond = resolution.diamond;
    expect(diamond).toMatchObject({
      supportsInterface: true,
      usedFacetsFallback: false,
      selector: "0x40c10f19",
      selectedFacet: named("diamondMintFacet"),
    });
    const facetNames = Object.keys(manifest.contracts).filter((n) => /^diamond.+Facet$/.test(n));
    expect(diamond?.facetCount).toBe(facetNames.length);
    expect(new Set(diamond?.facets.map((f) => f.address))).toEqual(new Set(facetNames.map(named)));
    expect(diamond?.selectorCount).toBe(diamond?.facets.reduce((n, f) => n + f.selectors.length, 0));
    expect(observation.roundTrips).toBeLessThanOrEqual(2);
  });

  test("behavior: a selector no facet holds leaves the Diamond resolution INCOMPLETE, saying why", async () => {
    const { resolution } = await resolve("diamond", "0xdeadbeef");
    expect(resolution.status).toBe("INCOMPLETE");
    expect(resolution.reason).toMatch(/^SELECTOR_NOT_IN_DIAMOND/);
    expect(resolution.facet).toBeNull();
  });

  test("behavior: contracts that are not proxies are COMPLETE with proxyType NONE", async () => {
    for (const name of ["factory", "plainToken", "selfDestructor", "WETH"]) {
      const { resolution } = await resolve(name);
      expect(resolution, name).toMatchObject({
        status: "COMPLETE",
        proxyType: "NONE",
        implementation: null,
        executionTarget: named(name),
        path: [],
      });
    }
  });

  test("behavior: a DELEGATECALL to a target in no known slot is reported INCOMPLETE, not hidden", async () => {
    const { resolution } = await resolve("delegateCaller");
    expect(resolution).toMatchObject({ status: "INCOMPLETE", resolutionComplete: false, proxyType: "UNKNOWN_DELEGATING" });
    expect(resolution.reason).toMatch(/^DELEGATECALL_TARGET_UNRESOLVED/);
  });

  test("behavior: an address with no code is NOT_A_CONTRACT", async () => {
    const reader = createPinnedReader(await pinObservationBlock({ providers: [devnet], chainId: 8453 }), [devnet]);
    const { resolution } = await resolveProxy({ reader, address: "0x000000000000000000000000000000000000dEaD" });
    expect(resolution).toMatchObject({ status: "NOT_A_CONTRACT", resolutionComplete: true, proxyType: "NONE" });
    expect(resolution.nodes[0]).toMatchObject({ bytecodeAvailable: false, bytecodeSizeBytes: 0, runtimeBytecodeHash: null });
  });
});
