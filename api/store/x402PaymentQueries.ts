import { and, eq, gt, inArray, lt, or, sql } from "drizzle-orm";
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
 * The payment a payment-identifier id was used for, while it is kept. An id found past its retention is
 * forgotten here and now, its row as `forgetRetainedAnswers` would (whose pass runs beside requests, at most
 * once a minute per process, and may not have reached it): a retry under it is then a new payment.
 */
export async function findX402PaymentByIdentifier(db: AppDb, identifier: string, now: Date): Promise<X402PaymentRow | undefined> {
  const [row] = await db.select().from(x402Payment).where(eq(x402Payment.paymentIdentifier, identifier));
  if (!row || !(row.retainedUntil && row.retainedUntil < now && (row.status === "SETTLED" || row.status === "FAILED"))) return row;
  await db
    .update(x402Payment)
    .set(forgotten)
    .where(and(eq(x402Payment.id, row.id), pastRetention(now)));
  return undefined;
}

/**
 * Claims a payment for one request before its work; false when it is already claimed. The primary key
 * (and the unique payment-identifier id) decides, so of any number of concurrent requests (on any
 * replica) carrying one payment or one id, one wins.
 */
export async function claimX402Payment(
  db: AppDb,
  row: Pick<X402PaymentRow, "id" | "route" | "network" | "asset" | "amount" | "claimedAt"> &
    Partial<Pick<X402PaymentRow, "paymentIdentifier" | "requestHash" | "nonce" | "validBefore" | "retainedUntil" | "payerKey">>,
): Promise<boolean> {
  const rows = await db
    .insert(x402Payment)
    .values({ ...row, status: "CLAIMED" })
    .onConflictDoNothing()
    .returning({ id: x402Payment.id });
  return rows.length === 1;
}

/**
 * One claim of a payment: its id and when it was claimed. The time fences the claim: a claim taken over
 * after its process died (`takeOverClaim`) no longer matches the dead one's, so a late write of that
 * process changes nothing.
 */
export type X402Claim = Pick<X402PaymentRow, "id" | "claimedAt">;

const stillClaimed = (claim: X402Claim) =>
  and(eq(x402Payment.id, claim.id), eq(x402Payment.status, "CLAIMED"), eq(x402Payment.claimedAt, claim.claimedAt));

/** Gives a claimed payment back (the answer was not a 2xx, nothing was taken): it may be used again. */
export async function releaseX402Payment(db: AppDb, claim: X402Claim): Promise<void> {
  await db.delete(x402Payment).where(stillClaimed(claim));
}

/**
 * Moves a claim to `claimedAt` (a new claimant's, or the epoch to leave it for the next retry), with the
 * transfer that paid it when one is known; false when it is no longer `claim`.
 */
export async function takeOverClaim(db: AppDb, claim: X402Claim, claimedAt: Date, txHash?: string): Promise<boolean> {
  const rows = await db
    .update(x402Payment)
    .set({ claimedAt, ...(txHash ? { txHash } : {}) })
    .where(stillClaimed(claim))
    .returning({ id: x402Payment.id });
  return rows.length === 1;
}

export type X402SettlementRecord = {
  status: Exclude<X402PaymentStatus, "CLAIMED">;
  txHash: string | null;
  reason: string | null;
  settledAt: Date;
  /** The answer withheld or served, kept for retries (null once the payment failed: nothing is served). */
  answer?: string | null;
  paymentResponse?: string | null;
};

/** Records how a claimed payment's settlement ended, with the answer it pays for; false when the claim is no longer `claim`. */
export async function recordX402Settlement(db: AppDb, claim: X402Claim, outcome: X402SettlementRecord): Promise<boolean> {
  const rows = await db.update(x402Payment).set(outcome).where(stillClaimed(claim)).returning({ id: x402Payment.id });
  return rows.length === 1;
}

/** Records how a PENDING settlement was resolved from the chain; false when another request resolved it first. */
export async function resolveX402Settlement(db: AppDb, id: string, outcome: X402SettlementRecord): Promise<boolean> {
  const rows = await db
    .update(x402Payment)
    .set(outcome)
    .where(and(eq(x402Payment.id, id), eq(x402Payment.status, "PENDING")))
    .returning({ id: x402Payment.id });
  return rows.length === 1;
}

/**
 * Forgets the answers, payment-identifier ids and payer keys kept past their retention, each row once
 * (its retention goes with them, so the next pass no longer matches it); the payment's record stays:
 * a replayed authorization is still refused. A PENDING payment keeps its answer until resolved. The
 * number of rows forgotten.
 */
export async function forgetRetainedAnswers(db: AppDb, now: Date): Promise<number> {
  const rows = await db.update(x402Payment).set(forgotten).where(pastRetention(now)).returning({ id: x402Payment.id });
  return rows.length;
}

/** What a row past its retention keeps no more. */
const forgotten = { answer: null, paymentResponse: null, paymentIdentifier: null, payerKey: null, retainedUntil: null };

/** A finished payment kept past its retention (a PENDING one keeps its answer until resolved). */
const pastRetention = (now: Date) => and(lt(x402Payment.retainedUntil, now), inArray(x402Payment.status, ["SETTLED", "FAILED"]));

/** A payment of one payer that may still take from its balance: its amount, the authorization it spends, and whether it settled. */
export type PayerCommitment = Pick<X402PaymentRow, "id" | "amount" | "nonce" | "validBefore" | "status" | "settledAt">;

/**
 * The payments of `payerKey` that may not be in a balance read now: claimed or pending, and those
 * settled after `settledSince` (a provider's head may not show them yet).
 */
export async function payerCommitments(db: AppDb, payerKey: string, settledSince: Date): Promise<PayerCommitment[]> {
  return db
    .select({
      id: x402Payment.id,
      amount: x402Payment.amount,
      nonce: x402Payment.nonce,
      validBefore: x402Payment.validBefore,
      status: x402Payment.status,
      settledAt: x402Payment.settledAt,
    })
    .from(x402Payment)
    .where(
      and(
        eq(x402Payment.payerKey, payerKey),
        or(
          inArray(x402Payment.status, ["CLAIMED", "PENDING"]),
          and(eq(x402Payment.status, "SETTLED"), gt(x402Payment.settledAt, settledSince)),
        ),
      ),
    );
}

/**
 * Claims a payment as `claimX402Payment` does, provided `committed` (what the payer's payments in
 * flight, read under a lock on the payer, still take from its balance) leaves room for it: the payer's
 * claims are made one at a time across replicas (a transaction-scoped advisory lock on its key), so
 * concurrent payments of one payer never commit more than its balance. CLAIMED: claimed; TAKEN: the
 * payment or its id is claimed already; OVER_BALANCE: refused, nothing written.
 */
export async function claimWithinBalance(
  db: AppDb,
  row: Parameters<typeof claimX402Payment>[1] & { payerKey: string },
  p: { settledSince: Date; committed: (commitments: PayerCommitment[]) => bigint; balance: bigint },
): Promise<"CLAIMED" | "TAKEN" | "OVER_BALANCE"> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${row.payerKey}, 0))`);
    const others = (await payerCommitments(tx as unknown as AppDb, row.payerKey, p.settledSince)).filter((c) => c.id !== row.id);
    const committed = p.committed(others);
    if (committed + row.amount > p.balance) return "OVER_BALANCE";
    return (await claimX402Payment(tx as unknown as AppDb, row)) ? "CLAIMED" : "TAKEN";
  });
}
