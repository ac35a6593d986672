import type { PaymentRequirements } from "@x402/core/types";
import type { ExactEvmPaymentPayload } from "./parsePaymentSignature";

/** The first of our terms that the requirements a client accepted differ in, as a reason code; null when all agree. */
export function termsMismatch(ours: PaymentRequirements, accepted: ExactEvmPaymentPayload["accepted"]): string | null {
  const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
  if (accepted.scheme !== ours.scheme) return "scheme_mismatch";
  if (accepted.network !== ours.network) return "network_mismatch";
  if (!same(accepted.asset, ours.asset)) return "asset_mismatch";
  if (!same(accepted.payTo, ours.payTo)) return "pay_to_mismatch";
  if (accepted.amount !== ours.amount) return "amount_mismatch";
  return null;
}
