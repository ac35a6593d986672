import type { Address, Hex } from "viem";
import { failure, type Result, success } from "../errors";
import {
  findX402Payment,
  recordX402Settlement,
  resolveX402Settlement,
  takeOverClaim,
  type X402PaymentRow,
} from "../store/x402PaymentQueries";
import type { Admission, RequestPayment } from "./AdmittedPayment";
import type { PaymentResponseOf } from "./createPaymentResponse";
import { PaidAnswer } from "./paidAnswer";
import type { ResolvePendingSettlement, SettlementResolution } from "./resolvePendingSettlement";
import { isTxHash, type PaymentRecords, recoveredClaim, settlementFailed, settlementPending } from "./SettlementRecord";

export type X402RecoveryParameters = PaymentRecords & {
  /** Where payments go. */
  payTo: Address;
  /** How a settlement whose outcome is unknown is resolved from the chain when it is retried. */
  resolvePending: ResolvePendingSettlement;
  paymentResponseOf: PaymentResponseOf;
  /** Longest a retry waits for the outcome of its payment in progress before it is told PAYMENT_PENDING. */
  retryWaitMs: number;
  /** Age past which a claim is taken for one whose process died before it recorded the settlement. */
  staleClaimMs: number;
};

/** What a retry of a payment already claimed is answered: its outcome, resolved from the chain when ours is unknown. */
export type X402Recovery = {
  /**
   * Whether a second request with the same authorization is a retry to resolve (a settlement still
   * unknown, a claim whose process died, a recovered claim's kept answer) rather than a payment used.
   */
  resolvable(row: X402PaymentRow): boolean;
  /**
   * The outcome of a payment already claimed, for a retry of it (the same authorization, or the same
   * payment-identifier id and request): its stored answer once settled (a pending settlement resolved
   * from the chain first, a stale claim recovered), a refusal once failed, PAYMENT_PENDING while it is
   * not known by the deadline.
   */
  outcomeOf(rowId: string, retry: RequestPayment): Promise<Result<Admission>>;
};

/** A fakeable pause (the global timer): tests move a retry's or a record's wait on faked time. */
export const pause = (ms: number) => new Promise((wake) => setTimeout(wake, ms));

/** Retries of payments already claimed: answered from our record, or from the chain when the record cannot say. */
export function createX402Recovery(p: X402RecoveryParameters): X402Recovery {
  const { clock } = p;
  const isStale = (row: X402PaymentRow) => row.status === "CLAIMED" && clock().getTime() - row.claimedAt.getTime() >= p.staleClaimMs;

  /** What the chain says became of a payment's authorization; PENDING when that cannot be read. */
  async function resolveFromChain(row: X402PaymentRow, payer: Address): Promise<SettlementResolution> {
    if (!row.nonce || row.validBefore === null) return { status: "PENDING" };
    try {
      return await p.resolvePending({
        from: payer,
        to: p.payTo,
        amount: row.amount,
        nonce: row.nonce as Hex,
        validBefore: row.validBefore,
        txHash: isTxHash(row.txHash) ? row.txHash : null,
      });
    } catch {
      p.log(`[x402] payment ${row.id}: its settlement could not be read from the chain`);
      return { status: "PENDING" };
    }
  }

  /**
   * A stale claim: its process died between the claim and the record of its settlement. The chain
   * says what became of the authorization: used, this request takes the claim over (keeping the
   * transfer's hash) and is served for the transfer already made, with no second one; unused at a block
   * past its validity, it failed and nothing was taken. Null while neither is known (an unused
   * authorization may still be broadcast until it expires), or when another retry took the claim over.
   */
  async function recoverStaleClaim(row: X402PaymentRow, retry: RequestPayment): Promise<Result<Admission> | null> {
    const resolution = await resolveFromChain(row, retry.payload.payload.authorization.from);
    if (resolution.status === "FAILED") {
      const failed = { status: "FAILED", txHash: null, reason: resolution.reason, settledAt: clock(), answer: null } as const;
      return (await recordX402Settlement(p.db, row, failed)) ? settlementFailed(resolution.reason) : null;
    }
    if (resolution.status !== "SETTLED") return null;
    const claimedAt = clock();
    if (!(await takeOverClaim(p.db, row, claimedAt, resolution.txHash))) return null;
    p.log(`[x402] payment ${row.id}: a claim left by a process that died is served by this request, for the transfer already made`);
    return success({ kind: "PAY", payment: { ...retry, id: row.id, claimedAt, settledTx: resolution.txHash } });
  }

  return {
    resolvable: (row) => row.status === "PENDING" || isStale(row) || (row.status === "SETTLED" && row.reason === recoveredClaim),

    async outcomeOf(rowId, retry) {
      const payer = retry.payload.payload.authorization.from;
      const resource = retry.resource;
      const deadline = Date.now() + p.retryWaitMs;
      for (;;) {
        const row = await findX402Payment(p.db, rowId);
        if (!row) return failure("PAYMENT_PENDING", "the payment's first request was not answered: retry it", { retryAfterSeconds: 1 });
        if (row.status === "SETTLED") {
          const answer = row.answer ? PaidAnswer.safeParse(JSON.parse(row.answer)) : null;
          if (answer?.success && row.paymentResponse)
            return success({ kind: "REPLAY", answer: answer.data, paymentResponse: row.paymentResponse });
          return failure("PAYMENT_INVALID", "the payment was settled and its answer is no longer kept", {
            reason: "payment_already_settled",
          });
        }
        if (row.status === "FAILED") return settlementFailed(row.reason ?? "settlement_failed");
        if (row.status === "PENDING") {
          const resolution = await resolveFromChain(row, payer);
          if (resolution.status === "SETTLED") {
            const answer = PaidAnswer.parse(JSON.parse(row.answer ?? "null"));
            const paymentResponse = await p.paymentResponseOf(row, payer, resource.url, resolution.txHash, answer);
            await resolveX402Settlement(p.db, rowId, {
              status: "SETTLED",
              txHash: resolution.txHash,
              reason: null,
              settledAt: clock(),
              paymentResponse,
            });
            continue;
          }
          if (resolution.status === "FAILED") {
            await resolveX402Settlement(p.db, rowId, {
              status: "FAILED",
              txHash: row.txHash,
              reason: resolution.reason,
              settledAt: clock(),
              answer: null,
            });
            continue;
          }
        }
        const stale = isStale(row);
        if (stale) {
          const recovered = await recoverStaleClaim(row, retry);
          if (recovered) return recovered;
        }
        if (Date.now() >= deadline)
          return settlementPending(row.status === "PENDING" ? (row.reason ?? "settlement_pending") : "payment_in_progress");
        await pause(row.status === "PENDING" || stale ? 1_000 : 100);
      }
    },
  };
}
