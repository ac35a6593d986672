import { and, eq } from "drizzle-orm";
import type { Hex } from "viem";
import { payment } from "../../ponder.schema";
import type { IndexDb } from "./indexDb";

/** One indexed USDC transfer to the payout address: transaction, log, block, sender, receiver, amount. */
export type IndexedPayment = typeof payment.$inferSelect;

/** The indexed USDC transfers to the payout address in transaction `txHash` (any case) on `chainId`. */
export async function readPaymentsByTxHash(db: IndexDb, chainId: number, txHash: Hex): Promise<IndexedPayment[]> {
  return db
    .select()
    .from(payment)
    .where(and(eq(payment.txHash, txHash.toLowerCase() as Hex), eq(payment.chainId, chainId)));
}
