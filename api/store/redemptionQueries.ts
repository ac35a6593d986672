import type { AppDb } from "./createAppStore";
import { redemption } from "./schema";

export type NewRedemption = typeof redemption.$inferInsert;

/**
 * Records that `txHash` paid for `intentId`; false when the txHash (or the intent) was already
 * redeemed. The primary key decides, so two replicas racing on one txHash get one true.
 */
export async function insertRedemption(db: AppDb, row: NewRedemption): Promise<boolean> {
  const rows = await db.insert(redemption).values(row).onConflictDoNothing().returning({ txHash: redemption.txHash });
  return rows.length === 1;
}
