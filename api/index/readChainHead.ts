import { eq } from "drizzle-orm";
import { chainHead } from "../../ponder.schema";
import type { IndexDb } from "./indexDb";

/** The newest block the indexer has processed: number, hash and timestamp (unix seconds). */
export type IndexedChainHead = typeof chainHead.$inferSelect;

/** The newest indexed block of `chainId`; null before the indexer has processed one. */
export async function readChainHead(db: IndexDb, chainId: number): Promise<IndexedChainHead | null> {
  const [head] = await db.select().from(chainHead).where(eq(chainHead.chainId, chainId)).limit(1);
  return head ?? null;
}
