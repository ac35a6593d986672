import { and, between, desc, eq } from "drizzle-orm";
import { whaleTransfer } from "../../ponder.schema";
import type { IndexDb } from "./indexDb";

/** One indexed transfer of a verified tracked token at or above its whale threshold. */
export type IndexedWhaleTransfer = typeof whaleTransfer.$inferSelect;

/** Up to `limit` whale transfers of `chainId` mined in blocks `fromBlock`..`toBlock` (inclusive), newest first. */
export async function readWhaleTransfers(
  db: IndexDb,
  chainId: number,
  { fromBlock, toBlock, limit }: { fromBlock: bigint; toBlock: bigint; limit: number },
): Promise<IndexedWhaleTransfer[]> {
  return db
    .select()
    .from(whaleTransfer)
    .where(and(eq(whaleTransfer.chainId, chainId), between(whaleTransfer.blockNumber, fromBlock, toBlock)))
    .orderBy(desc(whaleTransfer.blockNumber), desc(whaleTransfer.logIndex))
    .limit(limit);
}
