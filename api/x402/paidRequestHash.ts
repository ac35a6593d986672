import { createHash } from "node:crypto";
import type { PaymentRequirements } from "@x402/core/types";
import type { Address } from "viem";

/**
 * What a payment pays for, as a SHA-256: the route, the resource path, the terms and the payer. Two
 * payments with one payment-identifier id must agree on it (the authorization's nonce, validity and
 * signature may differ: a client signs anew on each retry); the payer's address is not stored.
 */
export function paidRequestHash(routeName: string, path: string, terms: PaymentRequirements, payer: Address): string {
  const parts = [routeName, path, terms.scheme, terms.network, terms.asset, terms.payTo, terms.amount, payer];
  return createHash("sha256").update(parts.join("\n").toLowerCase()).digest("hex");
}
