import { eq } from "drizzle-orm";
import { trackedToken } from "../../ponder.schema";
import type { IndexDb } from "./indexDb";

/** A tracked token as the indexer checked it on chain at start: verified (decimals read) or refused with a reason. */
export type IndexedTrackedToken = typeof trackedToken.$inferSelect;

/** Every tracked token of `chainId`, verified or refused. */
export async function readTrackedTokens(db: IndexDb, chainId: number): Promise<IndexedTrackedToken[]> {
  return db.select().from(trackedToken).where(eq(trackedToken.chainId, chainId));
}
