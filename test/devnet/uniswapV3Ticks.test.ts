import { type Address, erc20Abi, getAddress, maxUint256, parseEventLogs } from "viem";
import { beforeAll, describe, expect, test } from "vitest";
import { UniswapV3FactoryAbi } from "../../abis/UniswapV3FactoryAbi";
import { UniswapV3PoolAbi } from "../../abis/UniswapV3PoolAbi";
import { devnetRoles } from "../../devnet/accounts";
import { artifactOf, compileFixtures } from "../../devnet/compile";
import type { Manifest } from "../../devnet/manifest";
import { sqrtPriceX96Of } from "../../devnet/seed/poolMath";
import { devnetSwapRouterAbi } from "../../devnet/swapRouterAbi";
import { chainTruth } from "../support/chainTruth";
import { testClient, testManifest } from "../support/devnet";
import { deployTestToken } from "../support/testToken";
import {
  amount0Delta,
  amount1Delta,
  maxSqrtRatio,
  type ReferencePool,
  referenceSwap,
  sqrtRatioAtTick,
  ticksOfPositions,
} from "../support/uniswapV3Reference";

/** This file signs as users[4] only. */
const manifest: Manifest = testManifest();
const user = testClient(manifest, devnetRoles.firstUser + 4);
const router = manifest.contracts.swapRouter as Address;
const truth = chainTruth(user);
const q192 = 1n << 192n;

/** The test's own pool (fee 0.3%, tick spacing 60) at price 1, and its overlapping positions. */
const positions = [
  { tickLower: -600, tickUpper: 600, liquidity: 10n ** 21n },
  { tickLower: -120, tickUpper: 180, liquidity: 5n * 10n ** 21n },
  { tickLower: 60, tickUpper: 240, liquidity: 2n * 10n ** 21n },
];
let pool: Address;

const identity = (address: Address) => ({ address, kind: "uniswap-v3", factory: manifest.dexes.uniswapV3.factory, tickSpacing: 0 });

/** The pool's state at `blockNumber` as the reference takes it: slot0, liquidity, fee and every initialized tick. */
async function referencePoolAt(address: Address, blockNumber: bigint): Promise<ReferencePool> {
  const at = { address, abi: UniswapV3PoolAbi, blockNumber } as const;
  const [sqrtPriceX96, tick] = await user.readContract({ ...at, functionName: "slot0" });
  const tickSpacing = await user.readContract({ ...at, functionName: "tickSpacing" });
  const ticks = await truth.ticks({ ...identity(address), tickSpacing }, blockNumber);
  return {
    sqrtPriceX96,
    tick,
    liquidity: await user.readContract({ ...at, functionName: "liquidity" }),
    feePips: await user.readContract({ ...at, functionName: "fee" }),
    tickSpacing,
    liquidityNet: new Map(ticks.map((t) => [t.tick, t.liquidityNet])),
  };
}

/** Sends a router call and returns the pool's Swap event. */
async function swapOnChain(args: readonly [Address, boolean, boolean, bigint, bigint, Address]) {
  const hash = await user.writeContract({ address: router, abi: devnetSwapRouterAbi, functionName: "swapV3Exact", args, gas: 3_000_000n });
  const receipt = await user.waitForTransactionReceipt({ hash });
  expect(receipt.status).toBe("success");
  const [swap] = parseEventLogs({ abi: UniswapV3PoolAbi, eventName: "Swap", logs: receipt.logs });
  if (!swap) throw new Error("no Swap event");
  return { ...swap.args, blockNumber: receipt.blockNumber };
}

beforeAll(async () => {
  const [a, b] = [await deployTestToken(user, "TA", router), await deployTestToken(user, "TB", router)];
  const [token0, token1] = BigInt(a) < BigInt(b) ? [a, b] : [b, a];
  const factory = { address: manifest.dexes.uniswapV3.factory, abi: artifactOf(compileFixtures(), "UniswapV3Factory").abi };
  await user.waitForTransactionReceipt({
    hash: await user.writeContract({ ...factory, functionName: "createPool", args: [token0, token1, 3000] }),
  });
  pool = getAddress(
    await user.readContract({
      address: manifest.dexes.uniswapV3.factory,
      abi: UniswapV3FactoryAbi,
      functionName: "getPool",
      args: [token0, token1, 3000],
    }),
  );
  const poolAbi = artifactOf(compileFixtures(), "UniswapV3Pool").abi;
  await user.waitForTransactionReceipt({
    hash: await user.writeContract({ address: pool, abi: poolAbi, functionName: "initialize", args: [1n << 96n] }),
  });
  for (const p of positions) {
    const hash = await user.writeContract({
      address: router,
      abi: devnetSwapRouterAbi,
      functionName: "mintV3",
      args: [pool, p.tickLower, p.tickUpper, p.liquidity, user.account.address],
    });
    expect((await user.waitForTransactionReceipt({ hash })).status).toBe("success");
  }
  // The seeded pools' tokens, for the eth_call swaps.
  for (const symbol of ["USDC", "WETH"]) {
    const token = manifest.tokens[symbol]?.address as Address;
    await user.waitForTransactionReceipt({
      hash: await user.writeContract({ address: token, abi: erc20Abi, functionName: "approve", args: [router, maxUint256] }),
    });
  }
}, 60_000);

describe("the Uniswap V3 pool fixture", () => {
  test("default: ticks() and the tick bitmap hold each position's liquidity at its edges; liquidity() counts the ranges holding the price", async () => {
    const block = await user.getBlockNumber({ cacheTime: 0 });
    const ticks = await truth.ticks({ ...identity(pool), tickSpacing: 60 }, block);
    expect(ticks.map(({ tick, liquidityGross, liquidityNet }) => [tick, liquidityGross, liquidityNet])).toEqual(
      ticksOfPositions(positions),
    );
    expect(ticks.map((t) => t.tick)).toEqual([-600, -120, 60, 180, 240, 600]);
    expect(await user.readContract({ address: pool, abi: UniswapV3PoolAbi, functionName: "liquidity" })).toBe(6n * 10n ** 21n);
    const [, , , , , , , initialized] = await user.readContract({ address: pool, abi: UniswapV3PoolAbi, functionName: "ticks", args: [0] });
    expect(initialized).toBe(false);
  });

  test("behavior: an exact-input swap up across two initialized ticks moves exactly what V3's math predicts", async () => {
    const state = await referencePoolAt(pool, await user.getBlockNumber({ cacheTime: 0 }));
    const amountIn = 7n * 10n ** 19n;
    const expected = referenceSwap(state, { zeroForOne: false, amountSpecified: amountIn, sqrtPriceLimitX96: maxSqrtRatio - 1n });
    expect(expected.crossed).toEqual([60, 180]);
    const swap = await swapOnChain([pool, false, true, amountIn, 0n, user.account.address]);
    expect([swap.amount0, swap.amount1, swap.sqrtPriceX96, swap.tick, swap.liquidity]).toEqual([
      expected.amount0,
      expected.amount1,
      expected.sqrtPriceX96,
      expected.tick,
      expected.liquidity,
    ]);
    expect(swap.amount1).toBe(amountIn);
    // Past 180 only the wide range and [60, 240] remain.
    expect(swap.liquidity).toBe(3n * 10n ** 21n);
  });

  test("behavior: an exact-output swap back down, stopped by its price limit, crosses three ticks exactly as V3 does", async () => {
    const state = await referencePoolAt(pool, await user.getBlockNumber({ cacheTime: 0 }));
    const limit = sqrtRatioAtTick(-130);
    const wanted = 10n ** 21n; // more than the move to the limit yields
    const expected = referenceSwap(state, { zeroForOne: true, amountSpecified: -wanted, sqrtPriceLimitX96: limit });
    expect(expected.crossed).toEqual([180, 60, -120]);
    const swap = await swapOnChain([pool, true, false, wanted, limit, user.account.address]);
    expect([swap.amount0, swap.amount1, swap.sqrtPriceX96, swap.tick, swap.liquidity]).toEqual([
      expected.amount0,
      expected.amount1,
      limit,
      expected.tick,
      expected.liquidity,
    ]);
    expect(-swap.amount1).toBeLessThan(wanted);
  });

  test("behavior: burning a position clears the ticks no other position uses, and pays its tokens back", async () => {
    const burnAbi = artifactOf(compileFixtures(), "UniswapV3Pool").abi;
    const hash = await user.writeContract({ address: pool, abi: burnAbi, functionName: "burn", args: [60, 240, 2n * 10n ** 21n] });
    const receipt = await user.waitForTransactionReceipt({ hash });
    const [burn] = parseEventLogs({ abi: UniswapV3PoolAbi, eventName: "Burn", logs: receipt.logs });
    // The price is below the range: the position is all token0, rounded down.
    expect(burn?.args).toMatchObject({
      tickLower: 60,
      tickUpper: 240,
      amount: 2n * 10n ** 21n,
      amount0: amount0Delta(sqrtRatioAtTick(60), sqrtRatioAtTick(240), 2n * 10n ** 21n, false),
      amount1: 0n,
    });
    const ticks = await truth.ticks({ ...identity(pool), tickSpacing: 60 }, receipt.blockNumber);
    expect(ticks.map((t) => t.tick)).toEqual([-600, -120, 180, 600]);
  });
});

describe("the seeded WETH/USDC 0.05% pool", () => {
  test("behavior: an eth_call swap to ±2% moves exactly the reference's amounts across the narrow position's edges; the liquidity at the price alone misstates that depth by over 5%", async () => {
    const seeded = manifest.pools.find((p) => p.name === "uniswap-v3:WETH/USDC:500")?.address as Address;
    // At the seeding's block, as the deployer (who approved the router then): other files' swaps move this
    // shared pool's price, and with it how far the position's edges sit inside the band.
    const block = BigInt(manifest.seededAtBlock);
    const deployer = manifest.accounts.deployer.address as Address;
    const state = await referencePoolAt(seeded, block);
    for (const [zeroForOne, percent] of [
      [false, 102n],
      [true, 98n],
    ] as const) {
      const limit = sqrtPriceX96Of({ num: state.sqrtPriceX96 * state.sqrtPriceX96 * percent, den: 100n * q192 });
      const { result } = await user.simulateContract({
        address: router,
        abi: devnetSwapRouterAbi,
        functionName: "swapV3Exact",
        args: [seeded, zeroForOne, true, 10n ** 30n, limit, deployer],
        account: deployer,
        blockNumber: block,
      });
      const expected = referenceSwap(state, { zeroForOne, amountSpecified: 10n ** 30n, sqrtPriceLimitX96: limit });
      expect(result).toEqual([expected.amount0, expected.amount1]);
      expect(expected.sqrtPriceX96).toBe(limit);
      expect(expected.crossed.length, `ticks crossed to ${percent}%`).toBeGreaterThanOrEqual(1);
      const amountIn = zeroForOne ? expected.amount0 : expected.amount1;
      const atPriceOnly = (zeroForOne ? amount0Delta : amount1Delta)(state.sqrtPriceX96, limit, state.liquidity, true);
      const atPriceOnlyWithFee = atPriceOnly + (atPriceOnly * BigInt(state.feePips)) / BigInt(1_000_000 - state.feePips);
      expect(Math.abs(Number(atPriceOnlyWithFee) / Number(amountIn) - 1), `depth to ${percent}%`).toBeGreaterThan(0.05);
    }
  });
});
