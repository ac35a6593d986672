import { type Address, erc20Abi, keccak256, maxUint256 } from "viem";
import { AerodromePoolFactoryAbi } from "../../abis/AerodromePoolFactoryAbi";
import { SlipstreamCLFactoryAbi } from "../../abis/SlipstreamCLFactoryAbi";
import { UniswapV2FactoryAbi } from "../../abis/UniswapV2FactoryAbi";
import { UniswapV3FactoryAbi } from "../../abis/UniswapV3FactoryAbi";
import { UniswapV3PoolAbi } from "../../abis/UniswapV3PoolAbi";
import { baseDexDeployments } from "../../base/baseDexDeployments";
import { baseUniswapV4PoolManager } from "../../base/uniswapV4";
import { deployFixture, type SeedContext, send } from "../client";
import { artifactOf } from "../compile";
import type { Manifest, ManifestPool, ManifestToken, PoolKind } from "../manifest";
import { devnetSwapRouterAbi } from "../swapRouterAbi";
import { referenceRatio, sqrtPriceX96Of } from "./poolMath";
import { seedPositions } from "./positions";
import { unitsForUsd } from "./prices";

export type PoolSpec = { kind: PoolKind; base: string; quote: string; fee?: number; tickSpacing?: number; tvlUsd: number };

/**
 * The seeded pools, shaped like Base's market: every symbol priced by at least three pools on at least two
 * DEX kinds (V4 pools in devnet/seed/v4Pools.ts count), depths from a few million to tens of millions of
 * dollars as Base's deepest pools, every Uniswap V3 fee tier, stable pools for the dollar stables, and at
 * least five pools for each of USDC, WETH and cbBTC. A thin pool (AERO/USDC on Uniswap V2) stays below
 * the price's minimum depth.
 */
export const poolSpecs: readonly PoolSpec[] = [
  { kind: "slipstream", base: "WETH", quote: "USDC", tickSpacing: 100, tvlUsd: 45_000_000 },
  { kind: "uniswap-v3", base: "WETH", quote: "USDC", fee: 500, tvlUsd: 40_000_000 },
  { kind: "uniswap-v3", base: "WETH", quote: "USDC", fee: 3000, tvlUsd: 8_000_000 },
  { kind: "uniswap-v2", base: "WETH", quote: "USDC", tvlUsd: 6_000_000 },
  { kind: "aerodrome-volatile", base: "WETH", quote: "USDC", tvlUsd: 30_000_000 },
  { kind: "uniswap-v3", base: "cbBTC", quote: "USDC", fee: 500, tvlUsd: 20_000_000 },
  { kind: "uniswap-v3", base: "cbBTC", quote: "USDC", fee: 3000, tvlUsd: 4_000_000 },
  { kind: "uniswap-v2", base: "cbBTC", quote: "USDC", tvlUsd: 2_000_000 },
  { kind: "aerodrome-volatile", base: "cbBTC", quote: "USDC", tvlUsd: 15_000_000 },
  { kind: "slipstream", base: "cbBTC", quote: "USDC", tickSpacing: 100, tvlUsd: 12_000_000 },
  { kind: "uniswap-v3", base: "cbBTC", quote: "WETH", fee: 3000, tvlUsd: 10_000_000 },
  { kind: "uniswap-v2", base: "cbBTC", quote: "WETH", tvlUsd: 3_000_000 },
  { kind: "aerodrome-volatile", base: "cbBTC", quote: "WETH", tvlUsd: 6_000_000 },
  { kind: "uniswap-v3", base: "USDC", quote: "USDT", fee: 100, tvlUsd: 10_000_000 },
  { kind: "aerodrome-stable", base: "USDC", quote: "USDT", tvlUsd: 8_000_000 },
  { kind: "slipstream", base: "USDC", quote: "USDT", tickSpacing: 1, tvlUsd: 12_000_000 },
  { kind: "aerodrome-stable", base: "USDC", quote: "DAI", tvlUsd: 6_000_000 },
  { kind: "uniswap-v3", base: "DAI", quote: "USDC", fee: 100, tvlUsd: 4_000_000 },
  { kind: "slipstream", base: "DAI", quote: "USDC", tickSpacing: 1, tvlUsd: 3_000_000 },
  { kind: "aerodrome-volatile", base: "EURC", quote: "USDC", tvlUsd: 8_000_000 },
  { kind: "uniswap-v3", base: "EURC", quote: "USDC", fee: 500, tvlUsd: 6_000_000 },
  { kind: "slipstream", base: "EURC", quote: "USDC", tickSpacing: 50, tvlUsd: 5_000_000 },
  { kind: "aerodrome-volatile", base: "AERO", quote: "USDC", tvlUsd: 20_000_000 },
  { kind: "aerodrome-volatile", base: "AERO", quote: "WETH", tvlUsd: 10_000_000 },
  { kind: "slipstream", base: "AERO", quote: "WETH", tickSpacing: 200, tvlUsd: 8_000_000 },
  { kind: "uniswap-v3", base: "AERO", quote: "WETH", fee: 3000, tvlUsd: 2_000_000 },
  { kind: "uniswap-v2", base: "AERO", quote: "USDC", tvlUsd: 400_000 },
  { kind: "uniswap-v3", base: "VIRTUAL", quote: "WETH", fee: 10000, tvlUsd: 5_000_000 },
  { kind: "aerodrome-volatile", base: "VIRTUAL", quote: "WETH", tvlUsd: 8_000_000 },
  { kind: "uniswap-v2", base: "VIRTUAL", quote: "WETH", tvlUsd: 7_000_000 },
  { kind: "uniswap-v2", base: "DEGEN", quote: "WETH", tvlUsd: 6_000_000 },
  { kind: "uniswap-v3", base: "DEGEN", quote: "WETH", fee: 3000, tvlUsd: 3_000_000 },
  { kind: "aerodrome-volatile", base: "DEGEN", quote: "WETH", tvlUsd: 6_000_000 },
  { kind: "uniswap-v2", base: "TOSHI", quote: "WETH", tvlUsd: 6_000_000 },
  { kind: "aerodrome-volatile", base: "TOSHI", quote: "WETH", tvlUsd: 8_000_000 },
  { kind: "uniswap-v3", base: "TOSHI", quote: "WETH", fee: 10000, tvlUsd: 2_500_000 },
];

/** Stable manifest name of a pool, e.g. "uniswap-v3:WETH/USDC:500", "slipstream:WETH/USDC:100" or "aerodrome-stable:USDC/USDT". */
export function poolName(spec: PoolSpec): string {
  const tier = spec.fee ?? spec.tickSpacing;
  return `${spec.kind}:${spec.base}/${spec.quote}${tier === undefined ? "" : `:${tier}`}`;
}

/** The fixtures' factory addresses, by DEX. */
export type Factories = { uniswapV2: Address; uniswapV3: Address; aerodrome: Address; slipstream: Address };
type Deployment = { factories: Factories; router: Address; tokens: Record<string, ManifestToken> };

/**
 * Deploys the Uniswap V2, V3, Aerodrome and Slipstream factories (with the pool implementations the
 * latter two clone) and the swap router, creates every pool of `poolSpecs` through its factory and adds
 * liquidity at the reference prices from the deployer's funds. Returns each DEX's deployment as Base's
 * are described (base/baseDexDeployments.ts), for pool addresses to be derived as on Base.
 */
export async function seedPools(
  ctx: SeedContext,
  tokens: Record<string, ManifestToken>,
): Promise<{ dexes: Manifest["dexes"]; pools: Manifest["pools"]; factories: Factories; contracts: { swapRouter: Address } }> {
  const aerodromeImplementation = await deployFixture(ctx, "AerodromePool");
  const slipstreamImplementation = await deployFixture(ctx, "SlipstreamPool");
  const factories: Factories = {
    uniswapV2: await deployFixture(ctx, "UniswapV2Factory"),
    uniswapV3: await deployFixture(ctx, "UniswapV3Factory"),
    aerodrome: await deployFixture(ctx, "AerodromePoolFactory", [aerodromeImplementation]),
    slipstream: await deployFixture(ctx, "SlipstreamCLFactory", [slipstreamImplementation]),
  };
  const router = await deployFixture(ctx, "DevnetSwapRouter", [factories.uniswapV3, factories.slipstream]);
  for (const token of Object.values(tokens)) {
    await send(ctx, { address: token.address, abi: erc20Abi, functionName: "approve", args: [router, maxUint256] });
  }
  const deployment: Deployment = { factories, router, tokens };
  const pools: ManifestPool[] = [];
  for (const spec of poolSpecs) pools.push(await seedPool(ctx, deployment, spec));
  const slipstreamTickSpacings = await ctx.client.readContract({
    address: factories.slipstream,
    abi: artifactOf(ctx.artifacts, "SlipstreamCLFactory").abi,
    functionName: "tickSpacings",
  });
  const dexes: Manifest["dexes"] = {
    // The pools' creation code takes no arguments: its hash is the init code hash, as on Base.
    uniswapV2: { factory: factories.uniswapV2, initCodeHash: keccak256(artifactOf(ctx.artifacts, "UniswapV2Pair").bytecode) },
    // The fixture enables Base's fee tiers.
    uniswapV3: {
      factory: factories.uniswapV3,
      initCodeHash: keccak256(artifactOf(ctx.artifacts, "UniswapV3Pool").bytecode),
      fees: [...baseDexDeployments.uniswapV3.fees],
    },
    // placeUniswapV4PoolManager installs the PoolManager at Base's address; any key goes there, Base's standard tiers are derived.
    uniswapV4: { poolManager: baseUniswapV4PoolManager, feeTickSpacings: [...baseDexDeployments.uniswapV4.feeTickSpacings] },
    aerodrome: { factory: factories.aerodrome, implementation: aerodromeImplementation },
    slipstream: [
      {
        factory: factories.slipstream,
        implementation: slipstreamImplementation,
        tickSpacings: (slipstreamTickSpacings as number[]).map(Number),
      },
    ],
  };
  return { dexes, pools, factories, contracts: { swapRouter: router } };
}

async function seedPool(ctx: SeedContext, deployment: Deployment, spec: PoolSpec): Promise<ManifestPool> {
  const base = tokenOf(deployment.tokens, spec.base);
  const quote = tokenOf(deployment.tokens, spec.quote);
  const [token0, token1] = BigInt(base.address) < BigInt(quote.address) ? [base, quote] : [quote, base];
  const sqrtPriceX96 = sqrtPriceX96Of(referenceRatio(token0, token1));
  const address = await createPool(ctx, deployment.factories, spec, token0.address, token1.address, sqrtPriceX96);
  let concentrated: { fee: number; tickSpacing: number } | undefined;
  if (spec.kind === "uniswap-v3" || spec.kind === "slipstream") {
    concentrated = await addConcentratedLiquidity(ctx, deployment.router, address, spec, [token0, token1], sqrtPriceX96);
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
    factory: deployment.factories[factoryOfKind[spec.kind]],
    token0: token0.address,
    token1: token1.address,
    ...concentrated,
  };
}

/** Creates the pool through its factory (a Slipstream pool at its price) and reads its address back from the factory. */
export async function createPool(
  ctx: SeedContext,
  factories: Factories,
  spec: PoolSpec,
  token0: Address,
  token1: Address,
  sqrtPriceX96: bigint,
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
      const fee = tierOf(spec, spec.fee);
      await create(factories.uniswapV3, "UniswapV3Factory", "createPool", [token0, token1, fee]);
      const pool = await read({
        address: factories.uniswapV3,
        abi: UniswapV3FactoryAbi,
        functionName: "getPool",
        args: [token0, token1, fee],
      });
      await create(pool, "UniswapV3Pool", "initialize", [sqrtPriceX96]);
      return pool;
    }
    case "slipstream": {
      const tickSpacing = tierOf(spec, spec.tickSpacing);
      await create(factories.slipstream, "SlipstreamCLFactory", "createPool", [token0, token1, tickSpacing, sqrtPriceX96]);
      return read({
        address: factories.slipstream,
        abi: SlipstreamCLFactoryAbi,
        functionName: "getPool",
        args: [token0, token1, tickSpacing],
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
 * Mints overlapping positions holding about tvlUsd in an initialized V3 or Slipstream pool (narrow ones
 * on the tightest tier, which the dollar stables use); returns its fee and tick spacing.
 */
async function addConcentratedLiquidity(
  ctx: SeedContext,
  router: Address,
  pool: Address,
  spec: PoolSpec,
  tokens: [ManifestToken, ManifestToken],
  sqrtPriceX96: bigint,
): Promise<{ fee: number; tickSpacing: number }> {
  const tickSpacing = await ctx.client.readContract({ address: pool, abi: UniswapV3PoolAbi, functionName: "tickSpacing" });
  const fee = await ctx.client.readContract({ address: pool, abi: UniswapV3PoolAbi, functionName: "fee" });
  const positions = seedPositions(sqrtPriceX96, tickSpacing, tokens, { tvlUsd: spec.tvlUsd, stable: fee === 100 });
  for (const { tickLower, tickUpper, liquidity } of positions) {
    await send(ctx, {
      address: router,
      abi: devnetSwapRouterAbi,
      functionName: "mintV3",
      args: [pool, tickLower, tickUpper, liquidity, ctx.client.account.address],
    });
  }
  return { fee, tickSpacing };
}

/** The seeded token of `symbol`, or an error naming it. */
export function tokenOf(tokens: Record<string, ManifestToken>, symbol: string): ManifestToken {
  const token = tokens[symbol];
  if (!token) throw new Error(`pool needs token ${symbol}, which was not seeded`);
  return token;
}

/** A concentrated pool's fee tier or tick spacing, which its spec must give. */
function tierOf(spec: PoolSpec, tier: number | undefined): number {
  if (tier === undefined) throw new Error(`${poolName(spec)} has no fee tier or tick spacing`);
  return tier;
}

/** Which factory creates a pool of each kind. */
const factoryOfKind = {
  "uniswap-v2": "uniswapV2",
  "uniswap-v3": "uniswapV3",
  slipstream: "slipstream",
  "aerodrome-volatile": "aerodrome",
  "aerodrome-stable": "aerodrome",
} as const satisfies Record<PoolKind, keyof Factories>;
