import { type Address, erc20Abi, getAddress, keccak256, maxUint256, parseEther, stringToHex, zeroAddress } from "viem";
import { baseUniswapV4PoolManager, uniswapV4HookFlags, uniswapV4PoolId } from "../../base/uniswapV4";
import { deployFixture, placeFixture, type SeedContext, send } from "../client";
import { artifactOf } from "../compile";
import type { ManifestToken, ManifestV4Pool } from "../manifest";
import { devnetSwapRouterAbi } from "../swapRouterAbi";
import { referenceRatio, sqrtPriceX96Of } from "./poolMath";
import { tokenOf } from "./pools";
import { seedPositions } from "./positions";
import { unitsForUsd } from "./prices";
import { nativeEth } from "./tokens";

/**
 * A hooks address with swap-affecting permissions (beforeSwap, afterSwap, beforeSwapReturnsDelta) in its
 * low 14 bits, as a V4 hook's address carries them. Nothing is deployed there: the fixture never calls it.
 */
export const devnetSwapHooks: Address = getAddress(
  `0x${(
    (BigInt(keccak256(stringToHex("devnet swap hooks"))) & ((1n << 160n) - (1n << 14n))) |
    BigInt(uniswapV4HookFlags.beforeSwap | uniswapV4HookFlags.afterSwap | uniswapV4HookFlags.beforeSwapReturnsDelta)
  )
    .toString(16)
    .padStart(40, "0")}`,
);

type V4PoolSpec = { base: string; quote: string; fee: number; tickSpacing: number; tvlUsd: number; hooks?: Address };

/**
 * The seeded V4 pools: cbBTC/ETH, a DEGEN/ETH pool whose hooks can change swap results, a pool of two
 * untracked tokens (which the indexer must not index) and native ETH/USDC (deep), seeded last.
 */
export const v4PoolSpecs: readonly V4PoolSpec[] = [
  { base: "cbBTC", quote: "ETH", fee: 3000, tickSpacing: 60, tvlUsd: 6_000_000 },
  { base: "DEGEN", quote: "ETH", fee: 3000, tickSpacing: 60, tvlUsd: 2_000_000, hooks: devnetSwapHooks },
  { base: "UNTA", quote: "UNTB", fee: 3000, tickSpacing: 60, tvlUsd: 1_000_000 },
  { base: "ETH", quote: "USDC", fee: 500, tickSpacing: 10, tvlUsd: 25_000_000 },
];

/** Manifest name of a V4 pool, e.g. "uniswap-v4:ETH/USDC:500" or "uniswap-v4:DEGEN/ETH:3000:hooked". */
export function v4PoolName(spec: V4PoolSpec): string {
  return `uniswap-v4:${spec.base}/${spec.quote}:${spec.fee}${spec.hooks ? ":hooked" : ""}`;
}

/** ETH the deployer gets for the native-ETH sides of the V4 pools (far more than they take). */
const ethForPools = parseEther("1000000");

/** Installs the PoolManager fixture at Base's PoolManager address (before any seeding that trades in V4). */
export function placeUniswapV4PoolManager(ctx: SeedContext): Promise<Address> {
  return placeFixture(ctx, "UniswapV4PoolManager", baseUniswapV4PoolManager);
}

/**
 * Deploys the two untracked tokens, and initialises every pool of `v4PoolSpecs` at the reference prices with overlapping positions (through the
 * router, which owns them in the PoolManager's books) from the deployer's funds.
 */
export async function seedV4Pools(
  ctx: SeedContext,
  tokens: Record<string, ManifestToken>,
  router: Address,
  poolManager: Address,
): Promise<{ v4Pools: ManifestV4Pool[]; contracts: Record<string, Address> }> {
  const untracked = { UNTA: await seedUntrackedToken(ctx, "UNTA", router), UNTB: await seedUntrackedToken(ctx, "UNTB", router) };
  const deployer = ctx.client.account.address;
  await ctx.client.setBalance({ address: deployer, value: (await ctx.client.getBalance({ address: deployer })) + ethForPools });
  const known: Record<string, ManifestToken> = { ...tokens, ...untracked, ETH: nativeEth };
  const v4Pools: ManifestV4Pool[] = [];
  for (const spec of v4PoolSpecs) v4Pools.push(await seedV4Pool(ctx, router, spec, known));
  return {
    v4Pools,
    contracts: { poolManager, untrackedTokenA: untracked.UNTA.address, untrackedTokenB: untracked.UNTB.address },
  };
}

async function seedV4Pool(
  ctx: SeedContext,
  router: Address,
  spec: V4PoolSpec,
  tokens: Record<string, ManifestToken>,
): Promise<ManifestV4Pool> {
  const [base, quote] = [tokenOf(tokens, spec.base), tokenOf(tokens, spec.quote)];
  const [token0, token1] = BigInt(base.address) < BigInt(quote.address) ? [base, quote] : [quote, base];
  const key = {
    currency0: token0.address,
    currency1: token1.address,
    fee: spec.fee,
    tickSpacing: spec.tickSpacing,
    hooks: spec.hooks ?? zeroAddress,
  };
  const sqrtPriceX96 = sqrtPriceX96Of(referenceRatio(token0, token1));
  await send(ctx, {
    address: baseUniswapV4PoolManager,
    abi: artifactOf(ctx.artifacts, "UniswapV4PoolManager").abi,
    functionName: "initialize",
    args: [key, sqrtPriceX96],
  });
  const positions = seedPositions(sqrtPriceX96, spec.tickSpacing, [token0, token1], { tvlUsd: spec.tvlUsd, stable: false });
  for (const [i, { tickLower, tickUpper, liquidity }] of positions.entries()) {
    // A position holds at most its whole value in ETH; the router refunds what it does not take.
    const ethShare = key.currency0 === zeroAddress ? unitsForUsd(nativeEth, spec.tvlUsd) : 0n;
    await send(ctx, {
      address: router,
      abi: devnetSwapRouterAbi,
      functionName: "mintV4",
      args: [key, tickLower, tickUpper, liquidity, `0x${(i + 1).toString(16).padStart(64, "0")}`],
      value: ethShare,
    });
  }
  return {
    name: v4PoolName(spec),
    kind: "uniswap-v4",
    id: uniswapV4PoolId(key),
    poolManager: baseUniswapV4PoolManager,
    key,
  };
}

/** A fresh ERC-20 no tracked-token list names, held by the deployer, which lets the router spend it. */
async function seedUntrackedToken(ctx: SeedContext, symbol: string, router: Address): Promise<ManifestToken> {
  const address = getAddress(await deployFixture(ctx, "TrackedToken"));
  const contract = { address, abi: artifactOf(ctx.artifacts, "TrackedToken").abi };
  const token: ManifestToken = { symbol, address, decimals: 18 };
  await send(ctx, {
    ...contract,
    functionName: "initialize",
    args: [`Devnet untracked ${symbol}`, symbol, 18, ctx.client.account.address],
  });
  await send(ctx, { ...contract, functionName: "mint", args: [ctx.client.account.address, unitsForUsd(token, 1_000_000_000)] });
  await send(ctx, { address, abi: erc20Abi, functionName: "approve", args: [router, maxUint256] });
  return token;
}
