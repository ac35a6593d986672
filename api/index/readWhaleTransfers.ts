import { and, desc, eq, gte } from "drizzle-orm";
import { whaleTransfer } from "../../ponder.schema";
import type { IndexDb } from "./indexDb";

/** One indexed transfer of a verified tracked token at or above its whale threshold. */
export type IndexedWhaleTransfer = typeof whaleTransfer.$inferSelect;

/** Up to `limit` whale transfers of `chainId` mined at or after `since` (unix seconds), newest first. */
export async function readWhaleTransfers(
  db: IndexDb,
  chainId: number,
  { since, limit }: { since: bigint; limit: number },
): Promise<IndexedWhaleTransfer[]> {
  return db
    .select()
    .from(whaleTransfer)
    .where(and(eq(whaleTransfer.chainId, chainId), gte(whaleTransfer.timestamp, since)))
    .orderBy(desc(whaleTransfer.blockNumber), desc(whaleTransfer.logIndex))
    .limit(limit);
}
