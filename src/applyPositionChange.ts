import type { Context } from "ponder:registry";
import { pool, poolTick } from "ponder:schema";
import type { Hex } from "viem";

/** A position's liquidity change: a V3 Mint (positive) or Burn (negative), or a V4 ModifyLiquidity. */
export type PositionChange = { tickLower: number; tickUpper: number; liquidityDelta: bigint };

/**
 * Applies a position's change to an indexed pool as the pool itself does: the lower tick's net liquidity
 * gains the delta and the upper tick's loses it, both ticks' gross liquidity gains it (a tick left with
 * none is deleted), and the in-range liquidity gains it when the range holds the current tick
 * (tickLower <= tick < tickUpper, the tick being the pool's last Swap or Initialize). A zero delta (a V3
 * poke, a V4 fee collection) changes nothing. False when the pool is not indexed.
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
  await addToTick(context, poolAddress, change.tickLower, change.liquidityDelta, change.liquidityDelta);
  await addToTick(context, poolAddress, change.tickUpper, -change.liquidityDelta, change.liquidityDelta);
  const inRange = row.tick !== null && change.tickLower <= row.tick && row.tick < change.tickUpper;
  await context.db.update(pool, key).set({
    blockNumber,
    ...(inRange ? { liquidity: (row.liquidity ?? 0n) + change.liquidityDelta } : {}),
  });
  return true;
}

async function addToTick(context: Context, poolAddress: Hex, tick: number, net: bigint, gross: bigint): Promise<void> {
  const key = { chainId: context.chain.id, pool: poolAddress, tick };
  const row = await context.db.find(poolTick, key);
  const liquidityGross = (row?.liquidityGross ?? 0n) + gross;
  // The chain refuses to remove liquidity a tick does not hold: a negative gross means the index diverged.
  if (liquidityGross < 0n) throw new Error(`pool ${poolAddress} tick ${tick}: gross liquidity would fall below zero`);
  if (liquidityGross === 0n) {
    if (row) await context.db.delete(poolTick, key);
    return;
  }
  const liquidityNet = (row?.liquidityNet ?? 0n) + net;
  await context.db
    .insert(poolTick)
    .values({ ...key, liquidityNet, liquidityGross })
    .onConflictDoUpdate({ liquidityNet, liquidityGross });
}
