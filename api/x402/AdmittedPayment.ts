import type { PaymentRequirements } from "@x402/core/types";
import type { Hex } from "viem";
import type { PaidResource, PaidRoute } from "./PaidRoute";
import type { PaidAnswer } from "./paidAnswer";
import type { BatchSettlementEvmPaymentPayload, ExactEvmPaymentPayload } from "./parsePaymentSignature";

/** A payment verified and claimed for one request: serve it, then settle or release it. */
export type AdmittedPayment = {
  id: string;
  /** When this request claimed it: the claim's fence (`X402Claim`). */
  claimedAt: Date;
  route: PaidRoute;
  resource: PaidResource;
  payload: ExactEvmPaymentPayload;
  requirements: PaymentRequirements;
  /** The transfer that already paid for it: a claim recovered after its process died once it had settled. */
  settledTx: Hex | null;
};

/** The payment a request carries, before it holds a claim. */
export type RequestPayment = Omit<AdmittedPayment, "claimedAt" | "settledTx">;

/**
 * A batch-settlement voucher verified and reserved on its channel for one request: serve it, then charge or
 * release it. Its payload is the very object x402 verified: the scheme keeps the reservation under it.
 */
export type AdmittedVoucher = {
  route: PaidRoute;
  resource: PaidResource;
  payload: BatchSettlementEvmPaymentPayload;
  requirements: PaymentRequirements;
};

/** What a request pays with once admitted: an exact payment, or a batch-settlement voucher. */
export type AdmittedCall = AdmittedPayment | AdmittedVoucher;

/** Whether an admitted call pays with a batch-settlement voucher. */
export const isAdmittedVoucher = (call: AdmittedCall): call is AdmittedVoucher => call.requirements.scheme === "batch-settlement";

/** What a payment admits: work to do and settle (or charge), or an answer already paid for (a retry). */
export type Admission =
  | { kind: "PAY"; payment: AdmittedPayment }
  | { kind: "VOUCHER"; payment: AdmittedVoucher }
  | { kind: "REPLAY"; answer: PaidAnswer; paymentResponse: string };
