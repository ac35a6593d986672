import type { Context } from "ponder:registry";
import { pool, trackedToken } from "ponder:schema";

export type NewPool = Omit<typeof pool.$inferInsert, "chainId">;

/** Starts indexing a pool that holds at least one verified tracked token; false (and nothing stored) otherwise. */
export async function registerPool(context: Context, values: NewPool): Promise<boolean> {
  const chainId = context.chain.id;
  const token0 = await context.db.find(trackedToken, { chainId, address: values.token0 });
  const token1 = await context.db.find(trackedToken, { chainId, address: values.token1 });
  if (token0?.status !== "verified" && token1?.status !== "verified") return false;
  await context.db.insert(pool).values({ chainId, ...values });
  return true;
}
