import { encodePaymentResponseHeader } from "@x402/core/http";
import type { x402ResourceServer } from "@x402/core/server";
import type { Network, PaymentPayload, SettleResponse } from "@x402/core/types";
import type { Failure } from "../errors";
import { recordX402Settlement, releaseX402Payment, takeOverClaim } from "../store/x402PaymentQueries";
import type { AdmittedPayment } from "./AdmittedPayment";
import type { ConfirmSettlement } from "./confirmSettlement";
import type { PaymentResponseOf } from "./createPaymentResponse";
import { pause } from "./createX402Recovery";
import type { PaidAnswer } from "./paidAnswer";
import {
  isTxHash,
  type PaymentRecords,
  recoveredClaim,
  type SettlementRecord,
  settlementFailed,
  settlementPending,
} from "./SettlementRecord";
import { reasonCode } from "./X402Facilitator";

export type X402SettlementParameters = PaymentRecords & {
  /** x402's resource server: it settles through the facilitator. */
  server: x402ResourceServer;
  network: Network;
  /** How a settlement the facilitator reports is checked on the chain before the answer is released. */
  confirmSettlement: ConfirmSettlement;
  paymentResponseOf: PaymentResponseOf;
};

/** How a settlement ended: PAYMENT-RESPONSE (base64), and the refusal to answer with when the answer is withheld. */
export type SettlementOutcome = { paymentResponse: string; refusal: Failure | null };

/** The end of an admitted payment: settled for its answer, or given back. */
export type X402Settlement = {
  /** Settles an admitted payment for its (2xx) answer, records both, and signs the receipt. */
  settle(payment: AdmittedPayment, answer: PaidAnswer): Promise<SettlementOutcome>;
  /**
   * Gives an admitted payment back when its answer is not a 2xx: nothing is taken. A payment already
   * taken (a recovered claim, `settledTx`) cannot be: its refusal (PAYMENT_PENDING, retry the same
   * payment) replaces the answer.
   */
  release(payment: AdmittedPayment): Promise<Failure | null>;
};

/** Settlement and its record: through the facilitator, confirmed on the chain, written to the app store. */
export function createX402Settlement(p: X402SettlementParameters): X402Settlement {
  /**
   * Settles through the facilitator, then checks the chain: a settlement counts once the transfer is
   * read at evidence grade. Its end, with a short reason code and the transaction (when there is one).
   */
  async function settleOnChain(payment: AdmittedPayment): Promise<SettlementRecord> {
    let result: SettleResponse;
    try {
      result = await p.server.settlePayment(payment.payload as PaymentPayload, payment.requirements);
    } catch {
      // The facilitator could not be reached: whether it broadcast the transfer is unknown.
      return { status: "PENDING", reason: "settlement_pending", txHash: null };
    }
    const txHash = isTxHash(result.transaction) ? result.transaction : null;
    if (!result.success) {
      const reason = reasonCode(result.errorReason, "settlement_failed");
      return { status: reason === "settlement_pending" ? "PENDING" : "FAILED", reason, txHash };
    }
    if (!txHash) return { status: "PENDING", reason: "settlement_unconfirmed", txHash: null };
    const { from, to, value } = payment.payload.payload.authorization;
    const confirmation = await p.confirmSettlement(txHash, { from, to, amount: BigInt(value) });
    if (confirmation === "CONFIRMED") return { status: "SETTLED", reason: null, txHash };
    return confirmation === "CONTRADICTED"
      ? { status: "FAILED", reason: "settlement_not_on_chain", txHash }
      : { status: "PENDING", reason: "settlement_unconfirmed", txHash };
  }

  /**
   * Records a settlement's end, trying the store three times (unrecorded, the claim would later be
   * recovered from the chain and served again); a store failure is logged, never answered (the payment
   * is already final).
   */
  async function record(payment: AdmittedPayment, outcome: SettlementRecord, answer: string | null, paymentResponse: string | null) {
    for (let attempt = 1; attempt <= 3; attempt++) {
      try {
        const recorded = await recordX402Settlement(p.db, payment, { ...outcome, settledAt: p.clock(), answer, paymentResponse });
        if (!recorded)
          p.log(`[x402] payment ${payment.id}: its claim was taken over as stale; this settlement (${outcome.status}) is not recorded`);
        return;
      } catch {
        if (attempt < 3) await pause(500 * attempt);
      }
    }
    p.log(`[x402] the settlement of payment ${payment.id} (${outcome.status}) could not be recorded`);
  }

  return {
    async settle(payment, answer) {
      const outcome: SettlementRecord = payment.settledTx
        ? { status: "SETTLED", reason: recoveredClaim, txHash: payment.settledTx }
        : await settleOnChain(payment);
      const payer = payment.payload.payload.authorization.from;
      const transaction = outcome.txHash ?? "";
      if (outcome.status === "SETTLED" && outcome.txHash) {
        const row = { route: payment.route.name, asset: payment.requirements.asset, amount: BigInt(payment.requirements.amount) };
        const paymentResponse = await p.paymentResponseOf(row, payer, payment.resource.url, outcome.txHash, answer);
        await record(payment, outcome, JSON.stringify(answer), paymentResponse);
        return { paymentResponse, refusal: null };
      }
      const reason = outcome.reason ?? "settlement_failed";
      // A pending payment keeps its answer: a retry is served it once the chain shows the transfer.
      await record(payment, outcome, outcome.status === "PENDING" ? JSON.stringify(answer) : null, null);
      const paymentResponse = encodePaymentResponseHeader({ success: false, errorReason: reason, transaction, network: p.network });
      return { paymentResponse, refusal: outcome.status === "PENDING" ? settlementPending(reason) : settlementFailed(reason) };
    },

    async release(payment) {
      try {
        // A payment already settled is never given back: its claim is left stale, for the next retry to be served.
        if (payment.settledTx) await takeOverClaim(p.db, payment, new Date(0));
        else await releaseX402Payment(p.db, payment);
      } catch {
        p.log(`[x402] payment ${payment.id} could not be released; it stays claimed`);
      }
      return payment.settledTx ? settlementPending("payment_taken_answer_failed") : null;
    },
  };
}
