import { and, eq } from "drizzle-orm";
import type { AppDb } from "./createAppStore";
import { x402Payment } from "./schema";

export type X402PaymentRow = typeof x402Payment.$inferSelect;
export type X402PaymentStatus = X402PaymentRow["status"];

/** The payment's row, or undefined when this payment was never claimed (or was released). */
export async function findX402Payment(db: AppDb, id: string): Promise<X402PaymentRow | undefined> {
  const [row] = await db.select().from(x402Payment).where(eq(x402Payment.id, id));
  return row;
}

/**
 * Claims a payment for one request before its work; false when it is already claimed. The primary key
 * decides, so of any number of concurrent requests (on any replica) carrying one payment, one wins.
 */
export async function claimX402Payment(
  db: AppDb,
  row: Pick<X402PaymentRow, "id" | "route" | "network" | "asset" | "amount" | "claimedAt">,
): Promise<boolean> {
  const rows = await db
    .insert(x402Payment)
    .values({ ...row, status: "CLAIMED" })
    .onConflictDoNothing()
    .returning({ id: x402Payment.id });
  return rows.length === 1;
}

/** Gives a claimed payment back (the answer was not a 2xx, nothing was taken): it may be used again. */
export async function releaseX402Payment(db: AppDb, id: string): Promise<void> {
  await db.delete(x402Payment).where(and(eq(x402Payment.id, id), eq(x402Payment.status, "CLAIMED")));
}

/** Records how a claimed payment's settlement ended. */
export async function recordX402Settlement(
  db: AppDb,
  id: string,
  outcome: { status: Exclude<X402PaymentStatus, "CLAIMED">; txHash: string | null; reason: string | null; settledAt: Date },
): Promise<void> {
  await db.update(x402Payment).set(outcome).where(eq(x402Payment.id, id));
}
