import { encodePaymentResponseHeader } from "@x402/core/http";
import type { Network, SettleResponse } from "@x402/core/types";
import { OFFER_RECEIPT } from "@x402/extensions/offer-receipt";
import type { Address, Hex } from "viem";
import type { X402PaymentRow } from "../store/x402PaymentQueries";
import { bodySha256, type X402Signer } from "./createX402Signer";
import { observationBlockOf, type PaidAnswer } from "./paidAnswer";

export type PaymentResponseParameters = {
  network: Network;
  /** Where payments go. */
  payTo: Address;
  /** Signs receipts and paid answers; null: none are signed. */
  signer: X402Signer | null;
  log: (message: string) => void;
};

/** PAYMENT-RESPONSE (base64) of a settled payment, for the answer served for it. */
export type PaymentResponseOf = (
  row: Pick<X402PaymentRow, "route" | "asset" | "amount">,
  payer: Address,
  url: string,
  txHash: Hex,
  answer: PaidAnswer,
) => Promise<string>;

/**
 * PAYMENT-RESPONSE of a settled payment: x402's receipt signed for it, and the paid answer bound to it
 * (neither when there is no signer; an answer whose receipt cannot be signed is served without one).
 */
export function createPaymentResponse(p: PaymentResponseParameters): PaymentResponseOf {
  return async function paymentResponseOf(row, payer, url, txHash, answer) {
    const response: SettleResponse = { success: true, transaction: txHash, network: p.network, payer };
    if (p.signer) {
      try {
        const receipt = await p.signer.issuer.issueReceipt(url, payer, p.network, txHash);
        if (receipt.format === "eip712") {
          const paidAnswer = await p.signer.signPaidAnswer(receipt, {
            route: row.route,
            resourceUrl: url,
            network: p.network,
            asset: row.asset as Address,
            payTo: p.payTo,
            amount: row.amount.toString(),
            transaction: txHash,
            bodySha256: bodySha256(answer.body),
            observationBlock: String(observationBlockOf(answer) ?? 0),
          });
          response.extensions = { [OFFER_RECEIPT]: { info: { receipt, paidAnswer } } };
        }
      } catch {
        p.log("[x402] a receipt could not be signed; the answer is served without one");
      }
    }
    return encodePaymentResponseHeader(response);
  };
}
