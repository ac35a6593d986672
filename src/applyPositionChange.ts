import type { Context } from "ponder:registry";
import { pool, poolTick } from "ponder:schema";
import type { Hex } from "viem";
import { plan } from "./plan";

/** A position's liquidity change: a V3 Mint (positive) or Burn (negative), or a V4 ModifyLiquidity. */
export type PositionChange = { tickLower: number; tickUpper: number; liquidityDelta: bigint };

/**
 * Applies a position's change to an indexed pool as the pool itself does: the lower tick's net liquidity
 * gains the delta and the upper tick's loses it, both ticks' gross liquidity gains it (a tick left with
 * none is deleted), and the in-range liquidity gains it when the range holds the current tick
 * (tickLower <= tick < tickUpper, the tick being the pool's last Swap or Initialize). A zero delta (a V3
 * poke, a V4 fee collection) changes nothing. A tick that would be initialized past
 * INDEXER_MAX_TICKS_PER_POOL is not stored and the pool is marked `ticksIncomplete`: its depth is left
 * out from then on, never computed without that tick. False when the pool is not indexed.
 */
export async function applyPositionChange(
  context: Context,
  poolAddress: Hex,
  change: PositionChange,
  blockNumber: bigint,
): Promise<boolean> {
  const key = { chainId: context.chain.id, address: poolAddress };
  const row = await context.db.find(pool, key);
  if (!row) return false;
  if (change.liquidityDelta === 0n) return true;
  let { tickCount, ticksIncomplete } = row;
  for (const [tick, net] of [
    [change.tickLower, change.liquidityDelta],
    [change.tickUpper, -change.liquidityDelta],
  ] as const) {
    const added = await addToTick(context, poolAddress, tick, net, change.liquidityDelta, {
      // Once a tick was dropped none is initialized again: a stored tick's figures stay exact.
      mayInitialize: !ticksIncomplete && tickCount < plan.maxTicksPerPool,
      incomplete: ticksIncomplete,
    });
    if (added === "dropped") ticksIncomplete = true;
    else tickCount += added;
  }
  const inRange = row.tick !== null && change.tickLower <= row.tick && row.tick < change.tickUpper;
  await context.db.update(pool, key).set({
    blockNumber,
    tickCount,
    ticksIncomplete,
    ...(inRange ? { liquidity: (row.liquidity ?? 0n) + change.liquidityDelta } : {}),
  });
  return true;
}

/** Adds to one tick: 1 when it was initialized, -1 when its gross reached zero (deleted), 0 otherwise, "dropped" when not stored. */
async function addToTick(
  context: Context,
  poolAddress: Hex,
  tick: number,
  net: bigint,
  gross: bigint,
  pool: { mayInitialize: boolean; incomplete: boolean },
): Promise<1 | 0 | -1 | "dropped"> {
  const key = { chainId: context.chain.id, pool: poolAddress, tick };
  const row = await context.db.find(poolTick, key);
  const liquidityGross = (row?.liquidityGross ?? 0n) + gross;
  // Past the bound: a new tick is not stored, and one not stored earlier is not found when its liquidity leaves.
  if (!row && (gross > 0n ? !pool.mayInitialize : pool.incomplete)) return "dropped";
  // The chain refuses to remove liquidity a tick does not hold: a negative gross means the index diverged.
  if (liquidityGross < 0n) throw new Error(`pool ${poolAddress} tick ${tick}: gross liquidity would fall below zero`);
  if (liquidityGross === 0n) {
    if (!row) return 0;
    await context.db.delete(poolTick, key);
    return -1;
  }
  const liquidityNet = (row?.liquidityNet ?? 0n) + net;
  await context.db
    .insert(poolTick)
    .values({ ...key, liquidityNet, liquidityGross })
    .onConflictDoUpdate({ liquidityNet, liquidityGross });
  return row ? 0 : 1;
}
