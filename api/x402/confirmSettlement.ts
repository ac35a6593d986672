import type { Address, Hex } from "viem";
import type { RpcProvider } from "../chain/providers";
import { readPaymentTransaction } from "../payments/readPaymentTransaction";

/** The transfer a settlement must show: the authorization's payer, payee and amount. */
export type ExpectedTransfer = { from: Address; to: Address; amount: bigint };

/**
 * CONFIRMED: the transaction is in the canonical chain, succeeded and carries the transfer.
 * CONTRADICTED: it is there and did not (the facilitator's "success" is false). UNCONFIRMED: it could not
 * be read at evidence grade in time (not yet in every provider's chain, or the providers are down).
 */
export type SettlementConfirmation = "CONFIRMED" | "CONTRADICTED" | "UNCONFIRMED";

export type ConfirmSettlement = (txHash: Hex, expected: ExpectedTransfer) => Promise<SettlementConfirmation>;

export type EvidenceGradeSettlementParameters = {
  providers: readonly RpcProvider[];
  chainId: number;
  /** The token paid in (USDC). */
  token: Address;
  /** Reads before giving up: a public provider may be a block or two behind the facilitator's. */
  attempts?: number;
  intervalMs?: number;
};

/**
 * Confirms a settlement the way every payment is confirmed (`readPaymentTransaction`): at evidence
 * grade, so neither one untrusted provider nor the facilitator decides that a call was paid for.
 */
export function evidenceGradeSettlement({
  providers,
  chainId,
  token,
  attempts = 5,
  intervalMs = 1_000,
}: EvidenceGradeSettlementParameters): ConfirmSettlement {
  const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
  return async (txHash, expected) => {
    for (let attempt = 1; attempt <= attempts; attempt++) {
      if (attempt > 1) await new Promise((wake) => setTimeout(wake, intervalMs));
      const read = await readPaymentTransaction({ providers, chainId, txHash, token });
      if (read.status !== "FOUND" || !read.transaction.canonical) continue;
      const { succeeded, transfers } = read.transaction;
      const paid = transfers.some((t) => same(t.from, expected.from) && same(t.to, expected.to) && t.amount === expected.amount);
      return succeeded && paid ? "CONFIRMED" : "CONTRADICTED";
    }
    return "UNCONFIRMED";
  };
}
