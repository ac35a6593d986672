import { asc, eq } from "drizzle-orm";
import { poolTick } from "../../ponder.schema";
import type { IndexDb } from "./indexDb";

/** One initialized tick of an indexed concentrated-liquidity pool. */
export type IndexedPoolTick = typeof poolTick.$inferSelect;

/** The initialized ticks of every indexed pool of `chainId`, by pool (as `pool.address` spells it), ascending. */
export async function readPoolTicks(db: IndexDb, chainId: number): Promise<Map<string, IndexedPoolTick[]>> {
  const rows = await db.select().from(poolTick).where(eq(poolTick.chainId, chainId)).orderBy(asc(poolTick.pool), asc(poolTick.tick));
  const byPool = new Map<string, IndexedPoolTick[]>();
  for (const row of rows) {
    const ticks = byPool.get(row.pool);
    if (ticks) ticks.push(row);
    else byPool.set(row.pool, [row]);
  }
  return byPool;
}
