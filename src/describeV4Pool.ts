import type { Context } from "ponder:registry";
import type { Address, Hex } from "viem";
import { UniswapV4PoolManagerAbi } from "../abis/UniswapV4PoolManagerAbi";
import { decodeUniswapV4Liquidity, decodeUniswapV4Slot0, decodeUniswapV4TickLiquidity, uniswapV4PoolSlots } from "../base/uniswapV4";
import type { PlannedV4Pool } from "./config/indexerEnv";
import type { DescribedPool } from "./describePlannedPool";
import { readInitializedTicks } from "./readInitializedTicks";

/** What a V4 candidate the PoolManager holds no initialized pool for is (before its start block). */
export const uninitializedV4Pool: DescribedPool = {
  ok: false,
  reason: "the PoolManager holds no such pool (not initialized before the start block)",
  absent: true,
};

/**
 * A planned Uniswap V4 pool's state, read from the PoolManager's storage through `extsload` as V4's
 * StateLibrary reads it, at `blockNumber`: slot0, the in-range liquidity and every initialized tick
 * (bitmap words, then each tick's liquidity; at most `maxTicks`). Its key hashes to its id (derived so, or
 * checked when the configuration was parsed); a pool not initialized at that block is absent.
 */
export async function describeV4Pool(
  client: Context["client"],
  poolManager: Address,
  planned: PlannedV4Pool,
  blockNumber: bigint,
  maxTicks: number,
): Promise<DescribedPool> {
  const slots = uniswapV4PoolSlots(planned.id);
  const load = (keys: Hex[]) =>
    client.readContract({
      address: poolManager,
      abi: UniswapV4PoolManagerAbi,
      functionName: "extsload",
      args: [keys],
      blockNumber,
    }) as Promise<readonly Hex[]>;
  const [slot0Word, liquidityWord] = await load([slots.slot0, slots.liquidity]);
  if (slot0Word === undefined || liquidityWord === undefined) throw new Error("extsload answered fewer words than asked");
  const { sqrtPriceX96, tick } = decodeUniswapV4Slot0(slot0Word);
  if (sqrtPriceX96 === 0n) return uninitializedV4Pool;
  const read = await readInitializedTicks(planned.key.tickSpacing, maxTicks, {
    words: async (wordPositions) => (await load(wordPositions.map(slots.tickBitmapWord))).map((w) => BigInt(w)),
    liquidities: async (ticks) => (await load(ticks.map(slots.tick))).map(decodeUniswapV4TickLiquidity),
  });
  if (!read.ok) return { ...read, absent: false };
  const { key } = planned;
  return {
    ok: true,
    pool: {
      kind: "uniswap-v4",
      address: planned.id,
      factory: poolManager,
      token0: key.currency0,
      token1: key.currency1,
      fee: key.fee,
      tickSpacing: key.tickSpacing,
      hooks: key.hooks,
      sqrtPriceX96,
      tick,
      liquidity: decodeUniswapV4Liquidity(liquidityWord),
    },
    ticks: read.ticks,
  };
}
