import type { Context } from "ponder:registry";
import { pool, swap } from "ponder:schema";
import type { Address } from "viem";

/** A swap's amounts in base units, as a V2 pair reports them (V3's signed amounts map onto these). */
export type SwapAmounts = { amount0In: bigint; amount1In: bigint; amount0Out: bigint; amount1Out: bigint };

type SwapEvent = {
  log: { address: Address; logIndex: number };
  block: { number: bigint; timestamp: bigint };
};

/** Keeps the swap for the volume window and adds it to its (indexed) pool's volume, with any new state. */
export async function recordSwap(
  context: Context,
  event: SwapEvent,
  amounts: SwapAmounts,
  state: Partial<typeof pool.$inferInsert> = {},
): Promise<void> {
  const chainId = context.chain.id;
  await context.db.insert(swap).values({
    chainId,
    blockNumber: event.block.number,
    logIndex: event.log.logIndex,
    pool: event.log.address,
    timestamp: event.block.timestamp,
    ...amounts,
  });
  await context.db.update(pool, { chainId, address: event.log.address }).set((row) => ({
    ...state,
    volume0: row.volume0 + amounts.amount0In + amounts.amount0Out,
    volume1: row.volume1 + amounts.amount1In + amounts.amount1Out,
  }));
}
