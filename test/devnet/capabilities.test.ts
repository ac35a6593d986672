import { type Abi, type Address, encodeFunctionData, getAddress, type Hex, hexToBytes, keccak256, slice, toBytes } from "viem";
import { describe, expect, test } from "vitest";
import { artifactOf, compileFixtures } from "../../devnet/compile";
import {
  cloneImmutableArgs,
  delegationDesignator,
  diamondFacets,
  fanoutDiamonds,
  functionSelectors,
  maxRuntimeCodeBytes,
  shortPushImplementationAddress,
} from "../../devnet/seed/capabilities";
import { testClient, testManifest } from "../support/devnet";

const manifest = testManifest();
const client = testClient(manifest);
const artifacts = compileFixtures();
const abi = (contract: string): Abi => artifactOf(artifacts, contract).abi;

function contract(name: string): Address {
  const address = manifest.contracts[name];
  if (!address) throw new Error(`manifest has no contract ${name}`);
  return address;
}

async function slotAddress(address: Address, slot: Hex): Promise<Address> {
  const word = await client.getStorageAt({ address, slot });
  if (!word) throw new Error(`no storage word at ${address} ${slot}`);
  return getAddress(slice(word, 12));
}

const slots = {
  implementation: "0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc",
  admin: "0xb53127684a568b3173ae13b9f8a6016e243e63b6e8ee1178d6a717850b5d6103",
  beacon: "0xa3f0ad74e5423aebfd80d3ef4346578335a9a72aeaee59ff6cb3582b35133d50",
  proxiable: "0xc5f16f0fcc639fa48a6947836d9850f504798523bf8c9a3a87d5876cf622bcf7",
} as const;

/** Opcodes actually executed-as-code: PUSH data skipped, the CBOR metadata trailer (length in the last 2 bytes) cut. */
function opcodes(code: Hex): Set<number> {
  const bytes = hexToBytes(code);
  const metadataLength = ((bytes.at(-2) ?? 0) << 8) + (bytes.at(-1) ?? 0) + 2;
  const end = metadataLength < bytes.length ? bytes.length - metadataLength : bytes.length;
  const seen = new Set<number>();
  for (let i = 0; i < end; i++) {
    const op = bytes[i] as number;
    seen.add(op);
    if (op >= 0x60 && op <= 0x7f) i += op - 0x5f;
  }
  return seen;
}

describe("capability fixtures", () => {
  test("every fixture has code at its manifest address", async () => {
    const names = [
      "diamond",
      ...Object.keys(diamondFacets),
      "transparentProxy",
      "transparentProxyImplementation",
      "transparentProxyAdmin",
      "uupsProxy",
      "uupsImplementation",
      "eip1822Proxy",
      "eip1822Implementation",
      "beacon",
      "beaconProxy",
      "beaconImplementation",
      "immutableBeaconProxy",
      "cloneFactory",
      "clone",
      "cloneImplementation",
      "cloneWithImmutableArgs",
      "cloneShortPush",
      "cloneShortPushImplementation",
      "safeProxy",
      "safeSingleton",
      "selfDestructor",
      "delegateCaller",
      "factory",
      "factoryChild",
      "factoryChildDeterministic",
      "plainToken",
      "pushDataTrap",
      "delegate7702",
      ...Object.keys(fanoutDiamonds),
    ];
    for (const name of names) {
      const code = await client.getCode({ address: contract(name) });
      expect(code?.length ?? 0, name).toBeGreaterThan(2);
    }
  });

  test("EIP-7702 accounts hold exactly 0xef0100||delegate, set by a transaction that moved their nonce", async () => {
    const delegations = [
      ["delegatedAccount", "delegate7702"],
      ["delegatedAccountToProxy", "transparentProxy"],
    ] as const;
    for (const [account, delegate] of delegations) {
      const code = await client.getCode({ address: contract(account) });
      expect(code?.toLowerCase(), account).toBe(delegationDesignator(contract(delegate)));
      expect(await client.getTransactionCount({ address: contract(account) }), account).toBeGreaterThan(0);
    }
  });

  test("a call through the delegated account runs the delegate's batch executor in the account", async () => {
    const account = contract("delegatedAccount");
    const balanceOf = encodeFunctionData({
      abi: abi("CapPlainToken"),
      functionName: "balanceOf",
      args: [manifest.accounts.deployer.address],
    });
    const call = { to: contract("plainToken"), value: 0n, data: balanceOf };
    const results = await client.readContract({
      address: account,
      abi: abi("CapDelegate7702"),
      functionName: "execute",
      args: [[call]],
      account,
    });
    expect(results).toEqual([`0x${(10n ** 24n).toString(16).padStart(64, "0")}`]);
    await expect(
      client.readContract({
        address: account,
        abi: abi("CapDelegate7702"),
        functionName: "execute",
        args: [[call]],
        account: manifest.accounts.deployer.address,
      }),
    ).rejects.toThrow(/only the account itself/);
  });

  test("the Diamond's loupe lists every facet with exactly the selectors of its ABI", async () => {
    const facets = (await client.readContract({
      address: contract("diamond"),
      abi: abi("DiamondLoupeFacet"),
      functionName: "facets",
    })) as readonly { facetAddress: Address; functionSelectors: readonly Hex[] }[];
    const listed = new Map(facets.map((f) => [getAddress(f.facetAddress), [...f.functionSelectors].sort()]));
    const expected = new Map(
      Object.entries(diamondFacets).map(([name, solidity]) => [contract(name), functionSelectors(abi(solidity)).sort()]),
    );
    expect(listed).toEqual(expected);
  });

  test("the Diamond routes mint(address,uint256) to the mint facet and declares its interfaces", async () => {
    const loupe = { address: contract("diamond"), abi: abi("DiamondLoupeFacet") } as const;
    expect(await client.readContract({ ...loupe, functionName: "facetAddress", args: ["0x40c10f19"] })).toBe(contract("diamondMintFacet"));
    expect(await client.readContract({ ...loupe, functionName: "facetAddresses" })).toHaveLength(6);
    // ERC-165, IDiamondCut, IDiamondLoupe, ERC-173
    for (const id of ["0x01ffc9a7", "0x1f931c1c", "0x48e2b093", "0x7f5828d0"]) {
      expect(await client.readContract({ ...loupe, functionName: "supportsInterface", args: [id] }), id).toBe(true);
    }
    expect(await client.readContract({ ...loupe, functionName: "supportsInterface", args: ["0xffffffff"] })).toBe(false);
  });

  test("EIP-1967 transparent and UUPS proxies point their slots at their implementation and admin", async () => {
    expect(await slotAddress(contract("transparentProxy"), slots.implementation)).toBe(contract("transparentProxyImplementation"));
    expect(await slotAddress(contract("transparentProxy"), slots.admin)).toBe(contract("transparentProxyAdmin"));
    expect(await slotAddress(contract("uupsProxy"), slots.implementation)).toBe(contract("uupsImplementation"));
    expect(
      await client.readContract({
        address: contract("uupsImplementation"),
        abi: abi("CapUUPSImplementation"),
        functionName: "proxiableUUID",
      }),
    ).toBe(slots.implementation);
  });

  test("the EIP-1822 proxy keeps its logic at keccak256('PROXIABLE')", async () => {
    expect(keccak256(toBytes("PROXIABLE"))).toBe(slots.proxiable);
    expect(await slotAddress(contract("eip1822Proxy"), slots.proxiable)).toBe(contract("eip1822Implementation"));
    expect(await slotAddress(contract("eip1822Proxy"), slots.implementation)).toBe(getAddress(`0x${"0".repeat(40)}`));
  });

  test("beacon proxies reach the beacon's implementation, from the 1967 slot or from an immutable", async () => {
    const beacon = contract("beacon");
    expect(await client.readContract({ address: beacon, abi: abi("CapBeacon"), functionName: "implementation" })).toBe(
      contract("beaconImplementation"),
    );
    expect(await slotAddress(contract("beaconProxy"), slots.beacon)).toBe(beacon);
    const immutableProxy = contract("immutableBeaconProxy");
    expect(await client.getStorageAt({ address: immutableProxy, slot: slots.beacon })).toBe(`0x${"0".repeat(64)}`);
    expect((await client.getCode({ address: immutableProxy }))?.toLowerCase()).toContain(beacon.slice(2).toLowerCase());
    for (const proxy of [contract("beaconProxy"), immutableProxy]) {
      const owner = await client.readContract({ address: proxy, abi: abi("CapCounterLogic"), functionName: "owner" });
      expect(owner).toBe(manifest.accounts.deployer.address);
    }
  });

  test("the Safe-style proxy keeps its singleton in slot 0 and answers masterCopy() itself", async () => {
    const proxy = contract("safeProxy");
    expect(await slotAddress(proxy, "0x0")).toBe(contract("safeSingleton"));
    const masterCopy = await client.call({ to: proxy, data: "0xa619486e" });
    expect(getAddress(slice(masterCopy.data ?? "0x", 12))).toBe(contract("safeSingleton"));
    expect(await client.readContract({ address: proxy, abi: abi("CapSafeSingleton"), functionName: "getOwners" })).toEqual([
      manifest.accounts.deployer.address,
    ]);
  });

  test("clones carry the exact EIP-1167 runtime, with appended args or a shorter PUSH", async () => {
    const implementation = contract("cloneImplementation").slice(2).toLowerCase();
    const body = `0x363d3d373d3d3d363d73${implementation}5af43d82803e903d91602b57fd5bf3`;
    expect(await client.getCode({ address: contract("clone") })).toBe(body);
    expect(await client.getCode({ address: contract("cloneWithImmutableArgs") })).toBe(`${body}${cloneImmutableArgs.slice(2)}`);
    expect(
      await client.readContract({
        address: contract("cloneWithImmutableArgs"),
        abi: abi("CapCloneImplementation"),
        functionName: "immutableArgs",
      }),
    ).toBe(cloneImmutableArgs);

    expect(contract("cloneShortPushImplementation")).toBe(shortPushImplementationAddress);
    const short = shortPushImplementationAddress.slice(10).toLowerCase();
    expect(await client.getCode({ address: contract("cloneShortPush") })).toBe(
      `0x363d3d373d3d3d363d6f${short}5af43d82803e903d91602757fd5bf3`,
    );
    for (const clone of ["clone", "cloneWithImmutableArgs", "cloneShortPush"]) {
      const owner = await client.readContract({ address: contract(clone), abi: abi("CapCloneImplementation"), functionName: "owner" });
      expect(owner, clone).toBe(manifest.accounts.deployer.address);
    }
  });

  test("SELFDESTRUCT and DELEGATECALL are real opcodes where reachable, and only PUSH data in the trap", async () => {
    const code = async (name: string) => {
      const runtime = await client.getCode({ address: contract(name) });
      if (!runtime) throw new Error(`${name} has no code`);
      return runtime;
    };
    expect(opcodes(await code("selfDestructor")).has(0xff)).toBe(true);
    expect(opcodes(await code("delegateCaller")).has(0xf4)).toBe(true);
    const factoryOps = opcodes(await code("factory"));
    expect([factoryOps.has(0xf0), factoryOps.has(0xf5), factoryOps.has(0xf4)]).toEqual([true, true, false]);

    const trap = await code("pushDataTrap");
    expect(trap).toContain("f4ff00f2f5");
    const trapOps = opcodes(trap);
    for (const op of [0xf4, 0xff, 0xf2, 0xf5]) expect(trapOps.has(op), op.toString(16)).toBe(false);
  });

  test("the fanout loupes answer as configured: distinct facets, repeats, real facets first and last, selectors", async () => {
    const loupe = (name: keyof typeof fanoutDiamonds) => ({ address: contract(name), abi: abi("CapFanoutDiamond") }) as const;
    const facets = (await client.readContract({ ...loupe("fanoutDiamond"), functionName: "facets" })) as readonly {
      facetAddress: Address;
      functionSelectors: readonly Hex[];
    }[];
    const distinct = [...new Set(facets.map((f) => f.facetAddress))];
    expect([facets.length, distinct.length]).toEqual([333, 300]);
    expect(await client.readContract({ ...loupe("fanoutDiamond"), functionName: "facetAddresses" })).toEqual(distinct);
    expect([distinct[0], distinct[1], distinct[299]]).toEqual(["diamondMintFacet", "diamondFeeFacet", "diamondPauseFacet"].map(contract));
    expect(facets[9]?.facetAddress).toBe(contract("diamondMintFacet"));
    expect(facets[332]?.functionSelectors).toEqual(["0xfa000298", "0xfa000299"]);
    expect(await client.readContract({ ...loupe("fanoutDiamond"), functionName: "facetAddress", args: ["0xfa000298"] })).toBe(
      contract("diamondPauseFacet"),
    );
    expect(await client.readContract({ ...loupe("fanoutDiamond"), functionName: "supportsInterface", args: ["0x48e2b093"] })).toBe(true);

    const [wide] = (await client.readContract({ ...loupe("wideFacetDiamond"), functionName: "facets" })) as readonly {
      functionSelectors: readonly Hex[];
    }[];
    expect(wide?.functionSelectors).toHaveLength(20_000);

    const heavy = (await client.readContract({ ...loupe("heavyFacetDiamond"), functionName: "facetAddresses" })) as readonly Address[];
    expect(heavy).toHaveLength(180);
    for (const address of [heavy[0], heavy[179]] as Address[]) {
      expect(hexToBytes((await client.getCode({ address })) ?? "0x")).toHaveLength(maxRuntimeCodeBytes);
    }
  });

  test("the plain token exposes no privileged selector", () => {
    const selectors = functionSelectors(abi("CapPlainToken"));
    // mint, burn, pause, owner, transferOwnership, upgradeTo
    for (const privileged of ["0x40c10f19", "0x42966c68", "0x8456cb59", "0x8da5cb5b", "0xf2fde38b", "0x3659cfe6"]) {
      expect(selectors).not.toContain(privileged);
    }
  });
});
