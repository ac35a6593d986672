import { type Address, erc20Abi, getAddress, keccak256, maxUint256, pad, stringToHex } from "viem";
import { deployFixture, placeFixture, type SeedContext, send } from "../client";
import { artifactOf } from "../compile";
import type { ManifestToken } from "../manifest";
import { unitsForUsd } from "./prices";

/** Base's canonical addresses that the devnet reproduces. */
export const usdcAddress: Address = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";
export const wethAddress: Address = "0x4200000000000000000000000000000000000006";
export const multicall3Address: Address = "0xcA11bde05977b3631167028862bE2a173976CA11";

/** Storage slots of the zeppelinos proxy that Base's USDC sits behind. */
export const zeppelinosImplementationSlot = keccak256(stringToHex("org.zeppelinos.proxy.implementation"));
export const zeppelinosAdminSlot = keccak256(stringToHex("org.zeppelinos.proxy.admin"));

/**
 * Admin of the devnet USDC proxy: an address without a key, so that no funded account loses access to
 * the token through the proxy (the admin cannot reach the implementation). Impersonate it to upgrade.
 */
export const usdcProxyAdmin = getAddress(`0x${keccak256(stringToHex("devnet usdc proxy admin")).slice(-40)}`);

/** USD value of every token that each funded address, and the deployer (for pool liquidity), receives. */
export const fundingUsdPerToken = 10_000_000_000;

/** The tracked tokens other than USDC and WETH, as Base has them. */
const trackedTokens = [
  { symbol: "USDT", name: "Tether USD", address: "0xfde4C96c8593536E31F229EA8f37b2ADa2699bb2", decimals: 6 },
  { symbol: "DAI", name: "Dai Stablecoin", address: "0x50c5725949A6F0c72E6C4a641F24049A917DB0Cb", decimals: 18 },
  { symbol: "AERO", name: "Aerodrome", address: "0x940181a94A35A4569E4529A3CDfB74e38FD98631", decimals: 18 },
  { symbol: "EURC", name: "EURC", address: "0x60a3E35Cc302bFA44Cb288Bc5a4F316Fdb1adb42", decimals: 6 },
  { symbol: "cbBTC", name: "Coinbase Wrapped BTC", address: "0xcbB7C0000aB88B473b1f5aFd9ef808440eed33Bf", decimals: 8 },
  { symbol: "VIRTUAL", name: "Virtual Protocol", address: "0x0b3e328455c4059EEb9e3f84b5543F74E24e7E1b", decimals: 18 },
  { symbol: "DEGEN", name: "Degen", address: "0x4ed4E862860beD51a9570b96d89aF5E1B0Efefed", decimals: 18 },
  { symbol: "TOSHI", name: "Toshi", address: "0xAC1Bd2486aAf3B5C0fc3Fd868558b082a531B2B4", decimals: 18 },
] as const;

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
  await placeFixture(ctx, "Multicall3", multicall3Address);
  const { token: usdc, implementation } = await seedUsdc(ctx, holders);
  const tokens: Record<string, ManifestToken> = { USDC: usdc, WETH: await seedWeth(ctx, holders) };
  for (const spec of trackedTokens) tokens[spec.symbol] = await seedTrackedToken(ctx, spec, holders);
  return { tokens, contracts: { usdcImplementation: implementation, multicall3: multicall3Address } };
}

async function seedUsdc(ctx: SeedContext, holders: Address[]): Promise<{ token: ManifestToken; implementation: Address }> {
  const token: ManifestToken = { symbol: "USDC", address: usdcAddress, decimals: 6 };
  const implementation = await deployFixture(ctx, "FiatTokenV2");
  await placeFixture(ctx, "AdminUpgradeabilityProxy", usdcAddress);
  await ctx.client.setStorageAt({
    address: usdcAddress,
    index: zeppelinosImplementationSlot,
    value: pad(implementation),
  });
  await ctx.client.setStorageAt({ address: usdcAddress, index: zeppelinosAdminSlot, value: pad(usdcProxyAdmin) });

  const deployer = ctx.client.account.address;
  const usdc = { address: usdcAddress, abi: artifactOf(ctx.artifacts, "FiatTokenV2").abi };
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
  const token: ManifestToken = { symbol: "WETH", address: wethAddress, decimals: 18 };
  await placeFixture(ctx, "WETH9", wethAddress);
  const deployer = ctx.client.account.address;
  const each = unitsForUsd(token, fundingUsdPerToken);
  const total = each * BigInt(holders.length);
  await ctx.client.setBalance({
    address: deployer,
    value: (await ctx.client.getBalance({ address: deployer })) + total,
  });
  const weth = { address: wethAddress, abi: artifactOf(ctx.artifacts, "WETH9").abi };
  await send(ctx, { ...weth, functionName: "deposit", value: total });
  for (const holder of holders) {
    if (holder !== deployer) await send(ctx, { address: wethAddress, abi: erc20Abi, functionName: "transfer", args: [holder, each] });
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
