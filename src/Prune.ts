import { ponder } from "ponder:registry";
import { pool, pruneState, swap, whaleTransfer } from "ponder:schema";
import type { PgColumn } from "drizzle-orm/pg-core";
import { and, eq, lte, sql } from "ponder";
import { plan } from "./plan";

// Every INDEXER_PRUNE_INTERVAL_BLOCKS blocks: swaps leave the volume window (and their pool's volume),
// whale candidates leave theirs. Set-based SQL, where the store API would need one delete per row. Raw SQL
// is costly in Ponder (each statement is parsed, a write drops its in-memory tables), so it runs only once
// a window can hold anything indexed, and a plain read first skips the writes when nothing has expired.
ponder.on("Prune:block", async ({ event, context }) => {
  const chainId = context.chain.id;
  const state = await context.db.find(pruneState, { chainId });
  if (!state) {
    await context.db.insert(pruneState).values({ chainId, since: event.block.timestamp });
    return;
  }
  const cutoff = event.block.timestamp - BigInt(plan.volumeWindowSeconds);
  const expiredSwaps = and(eq(swap.chainId, chainId), lte(swap.timestamp, cutoff));
  if (cutoff >= state.since && (await context.db.sql.select({ one: sql`1` }).from(swap).where(expiredSwaps).limit(1)).length > 0) {
    const expiredSum = (amountIn: PgColumn, amountOut: PgColumn) =>
      sql`coalesce((select sum(${amountIn} + ${amountOut}) from ${swap} where ${swap.chainId} = ${pool.chainId} and ${swap.pool} = ${pool.address} and ${swap.timestamp} <= ${String(cutoff)}::numeric), 0)`;
    await context.db.sql
      .update(pool)
      .set({
        volume0: sql`${pool.volume0} - ${expiredSum(swap.amount0In, swap.amount0Out)}`,
        volume1: sql`${pool.volume1} - ${expiredSum(swap.amount1In, swap.amount1Out)}`,
        volumeSince: sql`greatest(${pool.volumeSince}, ${String(cutoff)}::numeric)`,
      })
      .where(eq(pool.chainId, chainId));
    await context.db.sql.delete(swap).where(expiredSwaps);
  }
  const whaleCutoff = event.block.timestamp - BigInt(plan.whaleWindowSeconds);
  const expiredWhales = and(eq(whaleTransfer.chainId, chainId), lte(whaleTransfer.timestamp, whaleCutoff));
  if (
    whaleCutoff >= state.since &&
    (await context.db.sql.select({ one: sql`1` }).from(whaleTransfer).where(expiredWhales).limit(1)).length > 0
  ) {
    await context.db.sql.delete(whaleTransfer).where(expiredWhales);
  }
});
