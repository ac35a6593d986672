import { and, eq, inArray, or } from "drizzle-orm";
import type { Address } from "viem";
import { pool } from "../../ponder.schema";
import type { IndexDb } from "./indexDb";

/** One indexed pool: kind, factory, tokens, fee, its latest state with the block it is from, and its rolling volume. */
export type IndexedPool = typeof pool.$inferSelect;

/** Every indexed pool of `chainId`, in its latest state. */
export async function readPools(db: IndexDb, chainId: number): Promise<IndexedPool[]> {
  return db.select().from(pool).where(eq(pool.chainId, chainId));
}

/** The indexed pools of `chainId` of one of `kinds` that pair `tokens` (addresses in any case, either order). */
export async function readPairPools(
  db: IndexDb,
  chainId: number,
  { tokens, kinds }: { tokens: readonly [Address, Address]; kinds: IndexedPool["kind"][] },
): Promise<IndexedPool[]> {
  const a = tokens[0].toLowerCase() as Address;
  const b = tokens[1].toLowerCase() as Address;
  return db
    .select()
    .from(pool)
    .where(
      and(
        eq(pool.chainId, chainId),
        or(and(eq(pool.token0, a), eq(pool.token1, b)), and(eq(pool.token0, b), eq(pool.token1, a))),
        inArray(pool.kind, kinds),
      ),
    );
}
