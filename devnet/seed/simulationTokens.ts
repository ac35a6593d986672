import { type Address, erc20Abi, getAddress, keccak256, maxUint256, pad, parseUnits, stringToHex, zeroAddress } from "viem";
import { AerodromePoolFactoryAbi } from "../../abis/AerodromePoolFactoryAbi";
import { UniswapV2FactoryAbi } from "../../abis/UniswapV2FactoryAbi";
import { UniswapV3PoolAbi } from "../../abis/UniswapV3PoolAbi";
import { sortTokens } from "../../base/poolAddress";
import { deployFixture, type SeedContext, send } from "../client";
import { artifactOf } from "../compile";
import type { ManifestToken, SimulationFixture } from "../manifest";
import { devnetSwapRouterAbi } from "../swapRouterAbi";
import { bigintSqrt, sqrtPriceX96Of } from "./poolMath";
import { createPool, type Factories } from "./pools";
import { unitsForUsd } from "./prices";

/** Where the fixtures' fees go: an address without a key (its balance is only ever read). */
export const simulationTreasury = getAddress(`0x${keccak256(stringToHex("devnet simulation treasury")).slice(-40)}`);

/** The traps, as SimFixtureToken's constructor takes them. */
type Traps = SimulationFixture["traps"];
const none: Traps = { buyFeeBps: 0, sellFeeBps: 0, transferFeeBps: 0, rebaseBps: 0, maxTxAmount: "0", sellsRestricted: false };

/** A concentrated pool (full range) three times as deep as the fixture's V2 pool, so the one traded through. */
type ConcentratedPool = { quote: "USDC" | "WETH" } & (
  | { kind: "uniswap-v3"; fee: number }
  | { kind: "slipstream"; tickSpacing: number }
  | { kind: "uniswap-v4"; fee: number; tickSpacing: number }
);

/** Every fixture at $1 a token (18 decimals), each with a Uniswap V2 pool against USDC holding $1M. */
const fixtureSpecs: { name: string; traps: Traps; deeperWethPool?: true; concentrated?: ConcentratedPool }[] = [
  // The plain token's deepest pool is an Aerodrome pool against WETH: the deepest is chosen across quotes.
  { name: "plain", traps: none, deeperWethPool: true },
  { name: "buySellTax", traps: { ...none, buyFeeBps: 300, sellFeeBps: 700 } },
  { name: "transferTax", traps: { ...none, transferFeeBps: 200 } },
  { name: "sellAllowlist", traps: { ...none, sellsRestricted: true } },
  { name: "maxTx", traps: { ...none, maxTxAmount: parseUnits("5000", 18).toString() } },
  // Paused by a test on a fork of the devnet, never in the seeded state.
  { name: "pausable", traps: none },
  { name: "rebasing", traps: { ...none, rebaseBps: 100 } },
  { name: "concentratedPlain", traps: none, concentrated: { quote: "USDC", kind: "uniswap-v3", fee: 3000 } },
  { name: "concentratedBuyTax", traps: { ...none, buyFeeBps: 300 }, concentrated: { quote: "WETH", kind: "slipstream", tickSpacing: 100 } },
  // A concentrated pool takes exactly what it is owed: this token's sells through it revert (Uniswap V3's IIA).
  { name: "concentratedSellTax", traps: { ...none, sellFeeBps: 500 }, concentrated: { quote: "USDC", kind: "uniswap-v3", fee: 500 } },
  // Its ladder's probes are exact-output swaps of the concentrated pool.
  {
    name: "concentratedMaxTx",
    traps: { ...none, maxTxAmount: parseUnits("5000", 18).toString() },
    concentrated: { quote: "USDC", kind: "uniswap-v3", fee: 3000 },
  },
  // A hookless Uniswap V4 pool: traded inside the PoolManager's unlock, its sells settled short revert (CurrencyNotSettled).
  { name: "v4BuyTax", traps: { ...none, buyFeeBps: 200 }, concentrated: { quote: "USDC", kind: "uniswap-v4", fee: 3000, tickSpacing: 60 } },
  {
    name: "v4SellTax",
    traps: { ...none, sellFeeBps: 400 },
    concentrated: { quote: "WETH", kind: "uniswap-v4", fee: 500, tickSpacing: 10 },
  },
];

const poolUsdPerSide = 500_000;
const supply = parseUnits("100000000", 18);

/**
 * Deploys the trade simulation's fixture tokens, each with its pools created by the devnet's factories
 * (so their addresses derive as Base's do) and registered with the token as the pools its buys and sells
 * go through.
 */
export async function seedSimulationTokens(
  ctx: SeedContext,
  dexes: Factories & { router: Address; poolManager: Address },
  quotes: { USDC: ManifestToken; WETH: ManifestToken },
): Promise<SimulationFixture[]> {
  const fixtures: SimulationFixture[] = [];
  for (const spec of fixtureSpecs) {
    const traps = [
      spec.traps.buyFeeBps,
      spec.traps.sellFeeBps,
      spec.traps.transferFeeBps,
      spec.traps.rebaseBps,
      BigInt(spec.traps.maxTxAmount),
      spec.traps.sellsRestricted,
    ];
    const address = await deployFixture(ctx, "SimFixtureToken", [
      `Sim ${spec.name}`,
      `SIM${fixtures.length}`,
      simulationTreasury,
      traps,
      supply,
    ]);
    const token = { abi: artifactOf(ctx.artifacts, "SimFixtureToken").abi, address };
    await send(ctx, { address, abi: erc20Abi, functionName: "approve", args: [dexes.router, maxUint256] });
    const pools = [await seedPool(ctx, dexes, address, quotes.USDC, 1, "uniswap-v2")];
    if (spec.deeperWethPool) pools.push(await seedPool(ctx, dexes, address, quotes.WETH, 3, "aerodrome-volatile"));
    if (spec.concentrated) pools.push(await seedConcentratedPool(ctx, dexes, address, quotes[spec.concentrated.quote], spec.concentrated));
    for (const pool of pools) await send(ctx, { ...token, functionName: "setPool", args: [pool.address] });
    fixtures.push({ name: spec.name, address, decimals: 18, treasury: simulationTreasury, traps: spec.traps, pools });
  }
  return fixtures;
}

/** Token and quote base units of `usd` on each side (the token at $1), ordered as the pool's token0 and token1. */
function sidesOf(token: Address, quote: ManifestToken, usd: number): [bigint, bigint] {
  const tokenAmount = parseUnits(String(usd), 18);
  const quoteAmount = unitsForUsd(quote, usd);
  return BigInt(token) < BigInt(quote.address) ? [tokenAmount, quoteAmount] : [quoteAmount, tokenAmount];
}

/**
 * A Uniswap V3, Slipstream or hookless V4 pool of `token` against `quote` at the token's $1, with one full-range position
 * of 3 × poolUsdPerSide a side: its liquidity is √(amount0 · amount1), as a constant-product pool's.
 */
async function seedConcentratedPool(
  ctx: SeedContext,
  dexes: Factories & { router: Address; poolManager: Address },
  token: Address,
  quote: ManifestToken,
  spec: ConcentratedPool,
): Promise<SimulationFixture["pools"][number]> {
  const [amount0, amount1] = sidesOf(token, quote, poolUsdPerSide * 3);
  const [token0, token1] = sortTokens(token, quote.address);
  const sqrtPriceX96 = sqrtPriceX96Of({ num: amount1, den: amount0 });
  // A part per million below: what the mint asks for rounds up.
  const liquidity = (bigintSqrt(amount0 * amount1) * 999_999n) / 1_000_000n;
  const fullRange = (tickSpacing: number) => Math.floor(887_272 / tickSpacing) * tickSpacing;
  if (spec.kind === "uniswap-v4") {
    const key = { currency0: token0, currency1: token1, fee: spec.fee, tickSpacing: spec.tickSpacing, hooks: zeroAddress };
    const manager = { address: dexes.poolManager, abi: artifactOf(ctx.artifacts, "UniswapV4PoolManager").abi };
    await send(ctx, { ...manager, functionName: "initialize", args: [key, sqrtPriceX96] });
    const edge = fullRange(spec.tickSpacing);
    await send(ctx, {
      address: dexes.router,
      abi: devnetSwapRouterAbi,
      functionName: "mintV4",
      args: [key, -edge, edge, liquidity, pad("0x01")],
    });
    return { kind: spec.kind, address: dexes.poolManager, quote: quote.symbol };
  }
  const poolSpec = { ...spec, base: token, tvlUsd: poolUsdPerSide * 6 };
  const pool = await createPool(ctx, dexes, poolSpec, token0, token1, sqrtPriceX96);
  const tickSpacing = await ctx.client.readContract({ address: pool, abi: UniswapV3PoolAbi, functionName: "tickSpacing" });
  const edge = fullRange(tickSpacing);
  await send(ctx, {
    address: dexes.router,
    abi: devnetSwapRouterAbi,
    functionName: "mintV3",
    args: [pool, -edge, edge, liquidity, ctx.client.account.address],
  });
  return { kind: spec.kind, address: pool, quote: quote.symbol };
}

/** A pool of `token` against `quote` holding poolUsdPerSide on each side (the token at $1); `depthScale` multiplies it. */
async function seedPool(
  ctx: SeedContext,
  dexes: { uniswapV2: Address; aerodrome: Address; router: Address },
  token: Address,
  quote: ManifestToken,
  depthScale: number,
  kind: "uniswap-v2" | "aerodrome-volatile",
): Promise<SimulationFixture["pools"][number]> {
  const read = ctx.client.readContract;
  let pool: Address;
  if (kind === "uniswap-v2") {
    await send(ctx, {
      address: dexes.uniswapV2,
      abi: artifactOf(ctx.artifacts, "UniswapV2Factory").abi,
      functionName: "createPair",
      args: [token, quote.address],
    });
    pool = await read({ address: dexes.uniswapV2, abi: UniswapV2FactoryAbi, functionName: "getPair", args: [token, quote.address] });
  } else {
    await send(ctx, {
      address: dexes.aerodrome,
      abi: artifactOf(ctx.artifacts, "AerodromePoolFactory").abi,
      functionName: "createPool",
      args: [token, quote.address, false],
    });
    pool = await read({
      address: dexes.aerodrome,
      abi: AerodromePoolFactoryAbi,
      functionName: "getPool",
      args: [token, quote.address, false],
    });
  }
  const [amount0, amount1] = sidesOf(token, quote, poolUsdPerSide * depthScale);
  await send(ctx, {
    address: dexes.router,
    abi: devnetSwapRouterAbi,
    functionName: "addLiquidity",
    args: [pool, amount0, amount1, ctx.client.account.address],
  });
  return { kind, address: pool, quote: quote.symbol };
}
