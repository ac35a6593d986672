import type { PaymentRequirements } from "@x402/core/types";
import type { Hex } from "viem";
import type { PaidResource, PaidRoute } from "./PaidRoute";
import type { PaidAnswer } from "./paidAnswer";
import type { ExactEvmPaymentPayload } from "./parsePaymentSignature";

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

/** What a payment admits: work to do and settle, or an answer already paid for (a retry). */
export type Admission = { kind: "PAY"; payment: AdmittedPayment } | { kind: "REPLAY"; answer: PaidAnswer; paymentResponse: string };
