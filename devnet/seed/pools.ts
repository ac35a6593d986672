import { type Address, erc20Abi, maxUint256 } from "viem";
import { AerodromePoolFactoryAbi } from "../../abis/AerodromePoolFactoryAbi";
import { UniswapV2FactoryAbi } from "../../abis/UniswapV2FactoryAbi";
import { UniswapV3FactoryAbi } from "../../abis/UniswapV3FactoryAbi";
import { UniswapV3PoolAbi } from "../../abis/UniswapV3PoolAbi";
import { deployFixture, type SeedContext, send } from "../client";
import { artifactOf } from "../compile";
import type { Manifest, ManifestPool, ManifestToken, PoolKind } from "../manifest";
import { devnetSwapRouterAbi } from "../swapRouterAbi";
import { referenceRatio, sqrtPriceX96Of } from "./poolMath";
import { seedPositions } from "./positions";
import { unitsForUsd } from "./prices";

type PoolSpec = { kind: PoolKind; base: string; quote: string; fee?: number; tvlUsd: number };

/**
 * The seeded pools: every kind, Uniswap V3 at four fee tiers, stable pools for the dollar stables, and
 * at least five pools for each of USDC, WETH and cbBTC so that the price median has five to choose from.
 */
export const poolSpecs: readonly PoolSpec[] = [
  { kind: "uniswap-v3", base: "WETH", quote: "USDC", fee: 500, tvlUsd: 40_000_000 },
  { kind: "uniswap-v3", base: "WETH", quote: "USDC", fee: 3000, tvlUsd: 8_000_000 },
  { kind: "uniswap-v2", base: "WETH", quote: "USDC", tvlUsd: 6_000_000 },
  { kind: "aerodrome-volatile", base: "WETH", quote: "USDC", tvlUsd: 30_000_000 },
  { kind: "uniswap-v3", base: "cbBTC", quote: "USDC", fee: 500, tvlUsd: 20_000_000 },
  { kind: "uniswap-v3", base: "cbBTC", quote: "USDC", fee: 3000, tvlUsd: 4_000_000 },
  { kind: "uniswap-v2", base: "cbBTC", quote: "USDC", tvlUsd: 2_000_000 },
  { kind: "aerodrome-volatile", base: "cbBTC", quote: "USDC", tvlUsd: 15_000_000 },
  { kind: "uniswap-v3", base: "cbBTC", quote: "WETH", fee: 3000, tvlUsd: 10_000_000 },
  { kind: "uniswap-v2", base: "cbBTC", quote: "WETH", tvlUsd: 3_000_000 },
  { kind: "aerodrome-volatile", base: "cbBTC", quote: "WETH", tvlUsd: 6_000_000 },
  { kind: "uniswap-v3", base: "USDC", quote: "USDT", fee: 100, tvlUsd: 10_000_000 },
  { kind: "aerodrome-stable", base: "USDC", quote: "USDT", tvlUsd: 8_000_000 },
  { kind: "aerodrome-stable", base: "USDC", quote: "DAI", tvlUsd: 6_000_000 },
  { kind: "uniswap-v3", base: "DAI", quote: "USDC", fee: 100, tvlUsd: 4_000_000 },
  { kind: "aerodrome-volatile", base: "EURC", quote: "USDC", tvlUsd: 8_000_000 },
  { kind: "uniswap-v3", base: "EURC", quote: "USDC", fee: 500, tvlUsd: 6_000_000 },
  { kind: "aerodrome-volatile", base: "AERO", quote: "USDC", tvlUsd: 20_000_000 },
  { kind: "aerodrome-volatile", base: "AERO", quote: "WETH", tvlUsd: 10_000_000 },
  { kind: "uniswap-v3", base: "VIRTUAL", quote: "WETH", fee: 10000, tvlUsd: 5_000_000 },
  { kind: "aerodrome-volatile", base: "VIRTUAL", quote: "WETH", tvlUsd: 8_000_000 },
  { kind: "uniswap-v2", base: "DEGEN", quote: "WETH", tvlUsd: 6_000_000 },
  { kind: "uniswap-v3", base: "DEGEN", quote: "WETH", fee: 3000, tvlUsd: 3_000_000 },
  { kind: "uniswap-v2", base: "TOSHI", quote: "WETH", tvlUsd: 6_000_000 },
  { kind: "aerodrome-volatile", base: "TOSHI", quote: "WETH", tvlUsd: 8_000_000 },
];

/** Stable manifest name of a pool, e.g. "uniswap-v3:WETH/USDC:500" or "aerodrome-stable:USDC/USDT". */
export function poolName(spec: PoolSpec): string {
  return `${spec.kind}:${spec.base}/${spec.quote}${spec.fee === undefined ? "" : `:${spec.fee}`}`;
}

type Deployment = { factories: Manifest["factories"]; router: Address; tokens: Record<string, ManifestToken> };

/**
 * Deploys the Uniswap V2, V3 and Aerodrome factories and the swap router, creates every pool of
 * `poolSpecs` through its factory and adds liquidity at the reference prices from the deployer's funds.
 */
export async function seedPools(
  ctx: SeedContext,
  tokens: Record<string, ManifestToken>,
): Promise<{ factories: Manifest["factories"]; pools: Manifest["pools"]; contracts: { swapRouter: Address } }> {
  const factories = {
    uniswapV2: await deployFixture(ctx, "UniswapV2Factory"),
    uniswapV3: await deployFixture(ctx, "UniswapV3Factory"),
    aerodrome: await deployFixture(ctx, "AerodromePoolFactory"),
  };
  const router = await deployFixture(ctx, "DevnetSwapRouter", [factories.uniswapV3]);
  for (const token of Object.values(tokens)) {
    await send(ctx, { address: token.address, abi: erc20Abi, functionName: "approve", args: [router, maxUint256] });
  }
  const deployment: Deployment = { factories, router, tokens };
  const pools: ManifestPool[] = [];
  for (const spec of poolSpecs) pools.push(await seedPool(ctx, deployment, spec));
  return { factories, pools, contracts: { swapRouter: router } };
}

async function seedPool(ctx: SeedContext, deployment: Deployment, spec: PoolSpec): Promise<ManifestPool> {
  const base = tokenOf(deployment.tokens, spec.base);
  const quote = tokenOf(deployment.tokens, spec.quote);
  const [token0, token1] = BigInt(base.address) < BigInt(quote.address) ? [base, quote] : [quote, base];
  const address = await createPool(ctx, deployment.factories, spec, token0.address, token1.address);
  let tickSpacing: number | undefined;
  if (spec.kind === "uniswap-v3") {
    tickSpacing = await addV3Liquidity(ctx, deployment.router, address, spec, token0, token1);
  } else {
    const [amount0, amount1] = [unitsForUsd(token0, spec.tvlUsd / 2), unitsForUsd(token1, spec.tvlUsd / 2)];
    await send(ctx, {
      address: deployment.router,
      abi: devnetSwapRouterAbi,
      functionName: "addLiquidity",
      args: [address, amount0, amount1, ctx.client.account.address],
    });
  }
  return {
    name: poolName(spec),
    kind: spec.kind,
    address,
    factory: factoryOf(deployment.factories, spec.kind),
    token0: token0.address,
    token1: token1.address,
    ...(spec.fee === undefined ? {} : { fee: spec.fee }),
    ...(tickSpacing === undefined ? {} : { tickSpacing }),
  };
}

/** Creates the pool through its factory and reads its address back from the factory. */
async function createPool(
  ctx: SeedContext,
  factories: Manifest["factories"],
  spec: PoolSpec,
  token0: Address,
  token1: Address,
): Promise<Address> {
  const create = (address: Address, contract: string, functionName: string, args: readonly unknown[]) =>
    send(ctx, { address, abi: artifactOf(ctx.artifacts, contract).abi, functionName, args });
  const read = ctx.client.readContract;
  switch (spec.kind) {
    case "uniswap-v2": {
      await create(factories.uniswapV2, "UniswapV2Factory", "createPair", [token0, token1]);
      return read({
        address: factories.uniswapV2,
        abi: UniswapV2FactoryAbi,
        functionName: "getPair",
        args: [token0, token1],
      });
    }
    case "uniswap-v3": {
      const fee = feeOf(spec);
      await create(factories.uniswapV3, "UniswapV3Factory", "createPool", [token0, token1, fee]);
      return read({
        address: factories.uniswapV3,
        abi: UniswapV3FactoryAbi,
        functionName: "getPool",
        args: [token0, token1, fee],
      });
    }
    default: {
      const stable = spec.kind === "aerodrome-stable";
      await create(factories.aerodrome, "AerodromePoolFactory", "createPool", [token0, token1, stable]);
      return read({
        address: factories.aerodrome,
        abi: AerodromePoolFactoryAbi,
        functionName: "getPool",
        args: [token0, token1, stable],
      });
    }
  }
}

/**
 * Initialises the pool at the reference price and mints overlapping positions holding about tvlUsd;
 * returns its tick spacing.
 */
async function addV3Liquidity(
  ctx: SeedContext,
  router: Address,
  pool: Address,
  spec: PoolSpec,
  token0: ManifestToken,
  token1: ManifestToken,
): Promise<number> {
  const sqrtPriceX96 = sqrtPriceX96Of(referenceRatio(token0, token1));
  await send(ctx, {
    address: pool,
    abi: artifactOf(ctx.artifacts, "UniswapV3Pool").abi,
    functionName: "initialize",
    args: [sqrtPriceX96],
  });
  const tickSpacing = await ctx.client.readContract({
    address: pool,
    abi: UniswapV3PoolAbi,
    functionName: "tickSpacing",
  });
  const positions = seedPositions(sqrtPriceX96, tickSpacing, [token0, token1], { tvlUsd: spec.tvlUsd, stable: feeOf(spec) === 100 });
  for (const { tickLower, tickUpper, liquidity } of positions) {
    await send(ctx, {
      address: router,
      abi: devnetSwapRouterAbi,
      functionName: "mintV3",
      args: [pool, tickLower, tickUpper, liquidity, ctx.client.account.address],
    });
  }
  return tickSpacing;
}

/** The seeded token of `symbol`, or an error naming it. */
export function tokenOf(tokens: Record<string, ManifestToken>, symbol: string): ManifestToken {
  const token = tokens[symbol];
  if (!token) throw new Error(`pool needs token ${symbol}, which was not seeded`);
  return token;
}

function feeOf(spec: PoolSpec): number {
  if (spec.fee === undefined) throw new Error(`${poolName(spec)} has no fee tier`);
  return spec.fee;
}

function factoryOf(factories: Manifest["factories"], kind: PoolKind): Address {
  return kind === "uniswap-v2" ? factories.uniswapV2 : kind === "uniswap-v3" ? factories.uniswapV3 : factories.aerodrome;
}
