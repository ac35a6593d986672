import { createHash } from "node:crypto";
import type { Eip3009Authorization } from "./parsePaymentSignature";

/**
 * The identity of a payment: one EIP-3009 authorization, which the token settles at most once (the
 * payer's nonce on that asset of that network). A SHA-256 of those four, so the record of a payment
 * never holds the payer's address.
 */
export function paymentId(terms: { network: string; asset: string }, authorization: Pick<Eip3009Authorization, "from" | "nonce">): string {
  const parts = [terms.network, terms.asset, authorization.from, authorization.nonce];
  return createHash("sha256").update(parts.join(":").toLowerCase()).digest("hex");
}

/**
 * The identity of a payer of one asset on one network, as a SHA-256 (the record never holds its
 * address): what its payments in flight are bounded by together.
 */
export function payerKey(terms: { network: string; asset: string }, from: string): string {
  return createHash("sha256").update([terms.network, terms.asset, from].join(":").toLowerCase()).digest("hex");
}
