import { eq } from "drizzle-orm";
import { pool } from "../../ponder.schema";
import type { IndexDb } from "./indexDb";

/** One indexed pool: kind, factory, tokens, fee, its latest state with the block it is from, and its rolling volume. */
export type IndexedPool = typeof pool.$inferSelect;

/** Every indexed pool of `chainId`, in its latest state. */
export async function readPools(db: IndexDb, chainId: number): Promise<IndexedPool[]> {
  return db.select().from(pool).where(eq(pool.chainId, chainId));
}
