/**
 * Capability fixtures: contracts (and EIP-7702 accounts) whose bytecode, proxy slots and facets the
 * capability service has to observe. Manifest names, all owned by the deployer:
 *
 * - diamond: EIP-2535 Diamond (CapDiamond); the loupe, ERC-165 and six facets below are cut into it.
 * - diamondCutFacet / diamondLoupeFacet / diamondOwnershipFacet: diamondCut, the full loupe with
 *   supportsInterface, and ERC-173 owner/transferOwnership.
 * - diamondMintFacet: privileged mint(address,uint256) plus transfer/balanceOf/totalSupply (1M minted).
 * - diamondPauseFacet / diamondFeeFacet: pause/unpause/paused and the owner's transfer-fee setter.
 * - fanoutDiamond / wideFacetDiamond / heavyFacetDiamond: loupes (CapFanoutDiamond) answering beyond the
 *   service's observation limits: 300 distinct facets (listed 333 times), one facet with 20,000 selectors,
 *   and 180 distinct facets each holding code of Base's maximum size (see `fanoutDiamonds`).
 * - transparentProxy, transparentProxyImplementation, transparentProxyAdmin: EIP-1967 transparent proxy,
 *   its logic (CapCounterLogic) and the admin contract (CapProxyAdmin) in its admin slot.
 * - uupsProxy, uupsImplementation: ERC-1967 proxy whose logic carries proxiableUUID/upgradeToAndCall.
 * - eip1822Proxy, eip1822Implementation: logic at the EIP-1822 slot keccak256("PROXIABLE").
 * - beacon, beaconImplementation, beaconProxy: upgradeable beacon and a proxy with it in the 1967 beacon slot.
 * - immutableBeaconProxy: a proxy of the same beacon held as an immutable (no storage slot at all).
 * - cloneFactory, cloneImplementation, clone: the exact 45-byte EIP-1167 clone.
 * - cloneWithImmutableArgs: Solady-style clone, the 1167 runtime followed by appended args.
 * - cloneShortPushImplementation, cloneShortPush: an implementation placed at an address with four
 *   leading zero bytes, and its 1167 clone that pushes it with PUSH16.
 * - safeProxy, safeSingleton: Safe-style proxy (singleton in slot 0, masterCopy() answered by the proxy).
 * - selfDestructor: SELFDESTRUCT reachable by its owner.
 * - delegateCaller: DELEGATECALL to a storage target (the counter logic) or to a caller-supplied one.
 * - factory, factoryChild, factoryChildDeterministic: a CREATE/CREATE2 factory (not a proxy) and its children.
 * - plainToken: ERC-20 with a fixed supply and no privileged selector.
 * - pushDataTrap: DELEGATECALL/SELFDESTRUCT/CALLCODE/CREATE2 bytes only inside PUSH data.
 * - delegate7702: batch executor that EIP-7702 accounts point to.
 * - delegatedAccount: the given delegator EOA, delegated to delegate7702 by a real type-4 transaction.
 * - delegatedAccountToProxy: devnet account 19, delegated to the transparent proxy (a chained delegation).
 */
import {
  type Abi,
  type Address,
  concat,
  encodeFunctionData,
  getAddress,
  type Hex,
  keccak256,
  parseEther,
  toBytes,
  toFunctionSelector,
  zeroAddress,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { devnetAccount } from "../accounts";
import { deployFixture, placeFixture, type SeedContext, send } from "../client";
import { artifactOf } from "../compile";

/** Diamond facets by manifest name and Solidity contract, in the order they are cut in. */
export const diamondFacets = {
  diamondCutFacet: "DiamondCutFacet",
  diamondLoupeFacet: "DiamondLoupeFacet",
  diamondOwnershipFacet: "DiamondOwnershipFacet",
  diamondMintFacet: "DiamondMintFacet",
  diamondPauseFacet: "DiamondPauseFacet",
  diamondFeeFacet: "DiamondFeeFacet",
} as const;

/**
 * Diamonds whose loupes answer with more than the service observes, by manifest name: how many `facets()`
 * entries (every tenth repeats an earlier facet), selectors per entry, and the real facets listed (the last
 * one as the last distinct facet). Every other facet is an address with no code, except on
 * heavyFacetDiamond, where each holds `maxRuntimeCodeBytes` of code.
 */
export const fanoutDiamonds = {
  /** 300 distinct facets: the mint and fee facets first, the pause facet 300th. */
  fanoutDiamond: { entries: 333, selectorsPerEntry: 2, realFacets: ["diamondMintFacet", "diamondFeeFacet", "diamondPauseFacet"] },
  /** The mint facet alone, listing 20,000 selectors. */
  wideFacetDiamond: { entries: 1, selectorsPerEntry: 20_000, realFacets: ["diamondMintFacet"] },
  /** 180 distinct facets of maximum-size code: 4,423,680 bytes in all. */
  heavyFacetDiamond: { entries: 200, selectorsPerEntry: 1, realFacets: [] },
} as const;

/** Base's runtime code size limit (EIP-170). */
export const maxRuntimeCodeBytes = 24_576;

/** Where the short-PUSH clone's implementation is placed: four leading zero bytes make it a PUSH16. */
export const shortPushImplementationAddress = getAddress("0x00000000c10e1167c10e1167c10e1167c10e1167");

/** Arguments appended to the Solady-style clone: readable back through `immutableArgs()`. */
export const cloneImmutableArgs: Hex = "0x00000000000000000000000000000000000000000000000000000000000021050badc0ffee";

/** The devnet account delegated to the transparent proxy. */
export const proxyDelegatorIndex = 19;

/** The code EIP-7702 puts on a delegated account. */
export function delegationDesignator(delegate: Address): Hex {
  return concat(["0xef0100", delegate]).toLowerCase() as Hex;
}

/** Selectors of every function in an ABI. */
export function functionSelectors(abi: Abi): Hex[] {
  return abi.flatMap((item) => (item.type === "function" ? [toFunctionSelector(item)] : []));
}

type KeyedAccount = { address: Address; privateKey: Hex };

export async function seedCapabilityFixtures(
  ctx: SeedContext,
  { delegator }: { delegator: KeyedAccount },
): Promise<{ contracts: Record<string, Address> }> {
  const owner = ctx.client.account.address;
  const diamond = await seedDiamond(ctx, owner);
  const fanout = await seedFanoutDiamonds(ctx, diamond);
  const proxies = await seedProxies(ctx, owner);
  const clones = await seedClones(ctx, owner);
  const opcodes = await seedOpcodeFixtures(ctx, proxies.transparentProxyImplementation);
  const plainToken = await deployFixture(ctx, "CapPlainToken", ["Cap Plain", "PLAIN", parseEther("1000000"), owner]);
  const delegate7702 = await deployFixture(ctx, "CapDelegate7702");
  await delegateAccounts(ctx, [
    { authority: delegator, to: delegate7702 },
    { authority: devnetAccount(proxyDelegatorIndex), to: proxies.transparentProxy },
  ]);
  return {
    contracts: {
      ...diamond,
      ...fanout,
      ...proxies,
      ...clones,
      ...opcodes,
      plainToken,
      delegate7702,
      delegatedAccount: delegator.address,
      delegatedAccountToProxy: devnetAccount(proxyDelegatorIndex).address,
    },
  };
}

async function seedDiamond(ctx: SeedContext, owner: Address): Promise<Record<string, Address>> {
  const facets: Record<string, Address> = {};
  for (const [name, contract] of Object.entries(diamondFacets)) facets[name] = await deployFixture(ctx, contract);
  const diamond = await deployFixture(ctx, "CapDiamond", [owner, facets.diamondCutFacet]);
  const cuts = Object.entries(diamondFacets)
    .filter(([name]) => name !== "diamondCutFacet")
    .map(([name, contract]) => ({
      facetAddress: facets[name],
      action: 0, // Add
      functionSelectors: functionSelectors(artifactOf(ctx.artifacts, contract).abi),
    }));
  await send(ctx, { address: diamond, abi: abiOf(ctx, "DiamondCutFacet"), functionName: "diamondCut", args: [cuts, zeroAddress, "0x"] });
  await send(ctx, { address: diamond, abi: abiOf(ctx, "DiamondMintFacet"), functionName: "mint", args: [owner, parseEther("1000000")] });
  return { diamond, ...facets };
}

/** Deploys `fanoutDiamonds` with the named real facets; on heavyFacetDiamond, places maximum-size code at every facet. */
async function seedFanoutDiamonds(ctx: SeedContext, facets: Record<string, Address>): Promise<Record<string, Address>> {
  const deployed: Record<string, Address> = {};
  for (const [name, { entries, selectorsPerEntry, realFacets }] of Object.entries(fanoutDiamonds)) {
    const real = realFacets.map((facet: string) => facets[facet] as Address);
    deployed[name] = await deployFixture(ctx, "CapFanoutDiamond", [real, BigInt(entries), BigInt(selectorsPerEntry)]);
  }
  const heavy = deployed.heavyFacetDiamond as Address;
  const addresses = (await ctx.client.readContract({
    address: heavy,
    abi: abiOf(ctx, "CapFanoutDiamond"),
    functionName: "facetAddresses",
  })) as Address[];
  const bytecode = maxSizeCode(artifactOf(ctx.artifacts, "FiatTokenV2").deployedBytecode);
  for (const address of addresses) await ctx.client.setCode({ address, bytecode });
  return deployed;
}

/** `code` repeated to exactly `maxRuntimeCodeBytes`: real instructions at the largest size Base allows. */
function maxSizeCode(code: Hex): Hex {
  const body = code.slice(2);
  return `0x${body.repeat(Math.ceil((maxRuntimeCodeBytes * 2) / body.length)).slice(0, maxRuntimeCodeBytes * 2)}`;
}

async function seedProxies(ctx: SeedContext, owner: Address) {
  const initialize = (contract: string) => encodeFunctionData({ abi: abiOf(ctx, contract), functionName: "initialize", args: [owner] });

  const transparentProxyImplementation = await deployFixture(ctx, "CapCounterLogic");
  const transparentProxyAdmin = await deployFixture(ctx, "CapProxyAdmin", [owner]);
  const transparentProxy = await deployFixture(ctx, "CapTransparentProxy", [
    transparentProxyImplementation,
    transparentProxyAdmin,
    initialize("CapCounterLogic"),
  ]);

  const uupsImplementation = await deployFixture(ctx, "CapUUPSImplementation");
  const uupsProxy = await deployFixture(ctx, "CapUUPSProxy", [uupsImplementation, initialize("CapUUPSImplementation")]);

  const eip1822Implementation = await deployFixture(ctx, "CapEip1822Implementation");
  const eip1822Proxy = await deployFixture(ctx, "CapEip1822Proxy", [initialize("CapEip1822Implementation"), eip1822Implementation]);

  const beaconImplementation = await deployFixture(ctx, "CapCounterLogic");
  const beacon = await deployFixture(ctx, "CapBeacon", [beaconImplementation, owner]);
  const beaconProxy = await deployFixture(ctx, "CapBeaconProxy", [beacon, initialize("CapCounterLogic")]);
  const immutableBeaconProxy = await deployFixture(ctx, "CapImmutableBeaconProxy", [beacon, initialize("CapCounterLogic")]);

  const safeSingleton = await deployFixture(ctx, "CapSafeSingleton");
  const safeProxy = await deployFixture(ctx, "CapSafeProxy", [safeSingleton]);
  await send(ctx, { address: safeProxy, abi: abiOf(ctx, "CapSafeSingleton"), functionName: "setup", args: [[owner], 1n] });

  return {
    transparentProxy,
    transparentProxyImplementation,
    transparentProxyAdmin,
    uupsProxy,
    uupsImplementation,
    eip1822Proxy,
    eip1822Implementation,
    beacon,
    beaconImplementation,
    beaconProxy,
    immutableBeaconProxy,
    safeProxy,
    safeSingleton,
  };
}

async function seedClones(ctx: SeedContext, owner: Address): Promise<Record<string, Address>> {
  const cloneFactory = await deployFixture(ctx, "CapCloneFactory");
  const cloneImplementation = await deployFixture(ctx, "CapCloneImplementation");
  const cloneShortPushImplementation = await placeFixture(ctx, "CapCloneImplementation", shortPushImplementationAddress);
  const factoryAbi = abiOf(ctx, "CapCloneFactory");
  const create = (functionName: string, args: readonly unknown[]) =>
    sendForAddress(ctx, { address: cloneFactory, abi: factoryAbi, functionName, args });

  const clone = await create("clone", [cloneImplementation]);
  const cloneWithImmutableArgs = await create("cloneWithImmutableArgs", [cloneImplementation, cloneImmutableArgs]);
  const cloneShortPush = await create("cloneShortPush", [cloneShortPushImplementation]);
  for (const instance of [clone, cloneWithImmutableArgs, cloneShortPush]) {
    await send(ctx, { address: instance, abi: abiOf(ctx, "CapCloneImplementation"), functionName: "initialize", args: [owner] });
  }
  return { cloneFactory, cloneImplementation, clone, cloneWithImmutableArgs, cloneShortPushImplementation, cloneShortPush };
}

async function seedOpcodeFixtures(ctx: SeedContext, delegateTarget: Address): Promise<Record<string, Address>> {
  const factory = await deployFixture(ctx, "CapFactory");
  const factoryAbi = abiOf(ctx, "CapFactory");
  const factoryChild = await sendForAddress(ctx, { address: factory, abi: factoryAbi, functionName: "deploy", args: [1n] });
  const factoryChildDeterministic = await sendForAddress(ctx, {
    address: factory,
    abi: factoryAbi,
    functionName: "deployDeterministic",
    args: [keccak256(toBytes("cap.factory.child")), 2n],
  });
  return {
    selfDestructor: await deployFixture(ctx, "CapSelfDestructor"),
    delegateCaller: await deployFixture(ctx, "CapDelegateCaller", [delegateTarget]),
    factory,
    factoryChild,
    factoryChildDeterministic,
    pushDataTrap: await deployFixture(ctx, "CapPushDataTrap"),
  };
}

/**
 * Delegates each authority's code with one type-4 transaction sent by the deployer; anvil drops an
 * invalid authorization silently, so the resulting code is checked.
 */
async function delegateAccounts(ctx: SeedContext, delegations: { authority: KeyedAccount; to: Address }[]): Promise<void> {
  const authorizationList = [];
  for (const { authority, to } of delegations) {
    authorizationList.push(await ctx.client.signAuthorization({ account: privateKeyToAccount(authority.privateKey), address: to }));
  }
  const first = delegations[0];
  if (!first) return;
  const hash = await ctx.client.sendTransaction({ to: first.authority.address, authorizationList, data: "0x" });
  const receipt = await ctx.client.waitForTransactionReceipt({ hash });
  if (receipt.status !== "success") throw new Error("EIP-7702 delegation transaction reverted");
  for (const { authority, to } of delegations) {
    const code = await ctx.client.getCode({ address: authority.address });
    if (code?.toLowerCase() !== delegationDesignator(to)) {
      throw new Error(`${authority.address} was not delegated to ${to} (code ${code})`);
    }
  }
}

/** Sends a write whose return value is the address it created (simulated first at the same state). */
async function sendForAddress(
  ctx: SeedContext,
  request: { address: Address; abi: Abi; functionName: string; args: readonly unknown[] },
): Promise<Address> {
  const { result } = await ctx.client.simulateContract({ ...request, account: ctx.client.account } as never);
  await send(ctx, request);
  return getAddress(result as Address);
}

function abiOf(ctx: SeedContext, contract: string): Abi {
  return artifactOf(ctx.artifacts, contract).abi;
}
