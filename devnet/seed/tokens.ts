import { type Address, erc20Abi, getAddress, keccak256, maxUint256, pad, stringToHex, zeroAddress } from "viem";
import { baseMulticall3, baseTokens, baseUsdc, baseWeth } from "../../base/baseChain";
import { deployFixture, placeFixture, type SeedContext, send } from "../client";
import { artifactOf } from "../compile";
import type { ManifestToken } from "../manifest";
import { unitsForUsd } from "./prices";

/** Storage slots of the zeppelinos proxy that Base's USDC sits behind. */
export const zeppelinosImplementationSlot = keccak256(stringToHex("org.zeppelinos.proxy.implementation"));
export const zeppelinosAdminSlot = keccak256(stringToHex("org.zeppelinos.proxy.admin"));

/**
 * Admin of the devnet USDC proxy: an address without a key, so that no funded account loses access to
 * the token through the proxy (the admin cannot reach the implementation). Impersonate it to upgrade.
 */
export const usdcProxyAdmin = getAddress(`0x${keccak256(stringToHex("devnet usdc proxy admin")).slice(-40)}`);

/** Native ETH as Uniswap V4 names it: currency address(0). */
export const nativeEth: ManifestToken = { symbol: "ETH", address: zeroAddress, decimals: 18 };

/** USD value of every token that each funded address, and the deployer (for pool liquidity), receives. */
export const fundingUsdPerToken = 10_000_000_000;

/** The tracked tokens other than USDC and WETH, as Base has them, with the name() of their fixture. */
const trackedTokens = [
  { ...baseTokens.USDT, name: "Tether USD" },
  { ...baseTokens.DAI, name: "Dai Stablecoin" },
  { ...baseTokens.AERO, name: "Aerodrome" },
  { ...baseTokens.EURC, name: "EURC" },
  { ...baseTokens.cbBTC, name: "Coinbase Wrapped BTC" },
  { ...baseTokens.VIRTUAL, name: "Virtual Protocol" },
  { ...baseTokens.DEGEN, name: "Degen" },
  { ...baseTokens.TOSHI, name: "Toshi" },
];

/**
 * Puts every tracked token at its Base address (USDC as the zeppelinos proxy over a deployed FiatTokenV2,
 * WETH and the others as placed code initialised by a call), places Multicall3, and funds the deployer
 * and each address in `fund` with `fundingUsdPerToken` of every token.
 */
export async function seedTokens(
  ctx: SeedContext,
  { fund }: { fund: Address[] },
): Promise<{ tokens: Record<string, ManifestToken>; contracts: Record<string, Address> }> {
  const holders = [ctx.client.account.address, ...fund];
  await placeFixture(ctx, "Multicall3", baseMulticall3);
  const { token: usdc, implementation } = await seedUsdc(ctx, holders);
  const tokens: Record<string, ManifestToken> = { USDC: usdc, WETH: await seedWeth(ctx, holders) };
  for (const spec of trackedTokens) tokens[spec.symbol] = await seedTrackedToken(ctx, spec, holders);
  return { tokens, contracts: { usdcImplementation: implementation, multicall3: baseMulticall3 } };
}

/** Places USDC at its Base address (the zeppelinos proxy over a deployed FiatTokenV2) and mints `fundingUsdPerToken` of it to each holder. */
export async function seedUsdc(ctx: SeedContext, holders: Address[]): Promise<{ token: ManifestToken; implementation: Address }> {
  const token: ManifestToken = { ...baseTokens.USDC };
  const implementation = await deployFixture(ctx, "FiatTokenV2");
  await placeFixture(ctx, "AdminUpgradeabilityProxy", baseUsdc);
  await ctx.client.setStorageAt({
    address: baseUsdc,
    index: zeppelinosImplementationSlot,
    value: pad(implementation),
  });
  await ctx.client.setStorageAt({ address: baseUsdc, index: zeppelinosAdminSlot, value: pad(usdcProxyAdmin) });

  const deployer = ctx.client.account.address;
  const usdc = { address: baseUsdc, abi: artifactOf(ctx.artifacts, "FiatTokenV2").abi };
  await send(ctx, {
    ...usdc,
    functionName: "initialize",
    args: ["USD Coin", "USDC", "USD", 6, deployer, deployer, deployer, deployer],
  });
  await send(ctx, { ...usdc, functionName: "configureMinter", args: [deployer, maxUint256] });
  for (const holder of holders) {
    await send(ctx, { ...usdc, functionName: "mint", args: [holder, unitsForUsd(token, fundingUsdPerToken)] });
  }
  return { token, implementation };
}

/** WETH is backed by ETH: the deployer gets the ETH from anvil, wraps it and hands it out. */
async function seedWeth(ctx: SeedContext, holders: Address[]): Promise<ManifestToken> {
  const token: ManifestToken = { ...baseTokens.WETH };
  await placeFixture(ctx, "WETH9", baseWeth);
  const deployer = ctx.client.account.address;
  const each = unitsForUsd(token, fundingUsdPerToken);
  const total = each * BigInt(holders.length);
  await ctx.client.setBalance({
    address: deployer,
    value: (await ctx.client.getBalance({ address: deployer })) + total,
  });
  const weth = { address: baseWeth, abi: artifactOf(ctx.artifacts, "WETH9").abi };
  await send(ctx, { ...weth, functionName: "deposit", value: total });
  for (const holder of holders) {
    if (holder !== deployer) await send(ctx, { address: baseWeth, abi: erc20Abi, functionName: "transfer", args: [holder, each] });
  }
  return token;
}

async function seedTrackedToken(ctx: SeedContext, spec: (typeof trackedTokens)[number], holders: Address[]): Promise<ManifestToken> {
  const token: ManifestToken = { symbol: spec.symbol, address: getAddress(spec.address), decimals: spec.decimals };
  await placeFixture(ctx, "TrackedToken", token.address);
  const contract = { address: token.address, abi: artifactOf(ctx.artifacts, "TrackedToken").abi };
  await send(ctx, {
    ...contract,
    functionName: "initialize",
    args: [spec.name, spec.symbol, spec.decimals, ctx.client.account.address],
  });
  for (const holder of holders) {
    await send(ctx, { ...contract, functionName: "mint", args: [holder, unitsForUsd(token, fundingUsdPerToken)] });
  }
  return token;
}
