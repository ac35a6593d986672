import type { Context } from "ponder:registry";
import { pool, swap } from "ponder:schema";
import type { Hex } from "viem";

/** A swap's amounts in base units, as a V2 pair reports them (V3's and V4's signed amounts map onto these). */
export type SwapAmounts = { amount0In: bigint; amount1In: bigint; amount0Out: bigint; amount1Out: bigint };

/** A swap's amounts from the pool's signed deltas (positive: paid into the pool, as V3 reports them). */
export function poolDeltaAmounts(amount0: bigint, amount1: bigint): SwapAmounts {
  return {
    amount0In: amount0 > 0n ? amount0 : 0n,
    amount1In: amount1 > 0n ? amount1 : 0n,
    amount0Out: amount0 < 0n ? -amount0 : 0n,
    amount1Out: amount1 < 0n ? -amount1 : 0n,
  };
}

type SwapEvent = {
  log: { logIndex: number };
  block: { number: bigint; timestamp: bigint };
};

/**
 * Keeps the swap for the volume window and adds it to its (indexed) pool's volume, with any new state.
 * `poolAddress` is the pool's `pool.address`: the emitting contract, or a V4 pool's id.
 */
export async function recordSwap(
  context: Context,
  event: SwapEvent,
  poolAddress: Hex,
  amounts: SwapAmounts,
  state: Partial<typeof pool.$inferInsert> = {},
): Promise<void> {
  const chainId = context.chain.id;
  await context.db.insert(swap).values({
    chainId,
    blockNumber: event.block.number,
    logIndex: event.log.logIndex,
    pool: poolAddress,
    timestamp: event.block.timestamp,
    ...amounts,
  });
  await context.db.update(pool, { chainId, address: poolAddress }).set((row) => ({
    ...state,
    volume0: row.volume0 + amounts.amount0In + amounts.amount0Out,
    volume1: row.volume1 + amounts.amount1In + amounts.amount1Out,
  }));
}
