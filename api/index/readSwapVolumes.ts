import { and, eq, gt, sql } from "drizzle-orm";
import { swap } from "../../ponder.schema";
import type { IndexDb } from "./indexDb";

/** Base units of token0 and token1 a pool swapped (in plus out) in a window, and how many swaps. */
export type SwapVolume = { volume0: bigint; volume1: bigint; swaps: number };

/** Per pool of `chainId`, the volume of the indexed swaps mined after `since` (unix seconds). */
export async function readSwapVolumes(db: IndexDb, chainId: number, since: bigint): Promise<Map<string, SwapVolume>> {
  const rows = await db
    .select({
      pool: swap.pool,
      volume0: sql<string>`sum(${swap.amount0In} + ${swap.amount0Out})`,
      volume1: sql<string>`sum(${swap.amount1In} + ${swap.amount1Out})`,
      swaps: sql<string>`count(*)`,
    })
    .from(swap)
    .where(and(eq(swap.chainId, chainId), gt(swap.timestamp, since)))
    .groupBy(swap.pool);
  return new Map(rows.map((r) => [r.pool, { volume0: BigInt(r.volume0), volume1: BigInt(r.volume1), swaps: Number(r.swaps) }]));
}
