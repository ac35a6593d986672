import { count, eq } from "drizzle-orm";
import { poolCandidate } from "../../ponder.schema";
import type { IndexDb } from "./indexDb";

/** How many planned pools (derived candidates or curated entries) the indexer left in each state. */
export type PoolCandidateCounts = { indexed: number; watched: number; refused: number };

/** The planned pools of `chainId` counted by outcome: indexed (verified, in `pool`), watched (no pool yet), refused. */
export async function readPoolCandidateCounts(db: IndexDb, chainId: number): Promise<PoolCandidateCounts> {
  const rows = await db
    .select({ status: poolCandidate.status, pools: count() })
    .from(poolCandidate)
    .where(eq(poolCandidate.chainId, chainId))
    .groupBy(poolCandidate.status);
  const counts: PoolCandidateCounts = { indexed: 0, watched: 0, refused: 0 };
  for (const row of rows) if (row.status in counts) counts[row.status as keyof PoolCandidateCounts] = Number(row.pools);
  return counts;
}
