import type { Address, Hex } from "viem";
import type { RpcProvider } from "../chain/providers";
import { failure, type Result, success } from "../errors";
import type { IndexDb } from "../index/indexDb";
import { readChainHead } from "../index/readChainHead";
import { type IndexedPayment, readPaymentsByTxHash } from "../index/readPayments";
import { requiredConfirmations } from "./confirmations";
import { type PaymentTransaction, readPaymentTransaction } from "./readPaymentTransaction";

/** What one purchase intent asks to be paid, frozen at its creation. */
export type ExpectedPayment = {
  wallet: Address;
  amountUsdc: bigint;
  /** Null: ETH was not offered. */
  amountWei: bigint | null;
  expiresAt: Date;
};

export type VerifiedPayment = { asset: "USDC" | "ETH"; amount: bigint };

export type PaymentVerdict = Result<VerifiedPayment>;

export type PaymentVerifier = { verify(expected: ExpectedPayment, txHash: Hex): Promise<PaymentVerdict> };

export type CreatePaymentVerifierParameters = {
  /** The indexed tables: `payment` (USDC transfers to the payout address) and `chain_head`. */
  indexDb: IndexDb;
  providers: readonly RpcProvider[];
  chainId: number;
  payTo: Address;
  usdc: Address;
};

/**
 * Checks that `txHash` pays an intent: sent by the intent's wallet, exactly the frozen amount, to the
 * payout address, in a block at or before the intent's expiry, with 3 confirmations. USDC payments
 * come from the indexed `payment` table (confirmations to the indexed head); ETH payments from the
 * transaction and receipt at an evidence-grade pinned block. The transaction's sender is read at
 * evidence grade in both cases (the indexed row holds the Transfer's sender, not the transaction's).
 */
export function createPaymentVerifier({ indexDb, providers, chainId, payTo, usdc }: CreatePaymentVerifierParameters): PaymentVerifier {
  const payout = payTo.toLowerCase();
  return {
    async verify(expected, txHash) {
      const hash = txHash.toLowerCase() as Hex;
      const [read, rows, head] = await Promise.all([
        readPaymentTransaction({ providers, chainId, txHash: hash }),
        readPaymentsByTxHash(indexDb, chainId, hash),
        readChainHead(indexDb, chainId),
      ]);
      if (read.status === "UNAVAILABLE") {
        return failure("DATA_SOURCE_UNAVAILABLE", `the transaction cannot be read at evidence grade now (${read.reason}); retry later`);
      }
      if (read.status === "NOT_FOUND") {
        return failure("PAYMENT_NOT_FOUND", "no mined transaction has this hash (yet); retry once it is mined");
      }
      const tx = read.transaction;
      if (tx.from !== expected.wallet.toLowerCase()) {
        return failure("PAYMENT_SENDER_MISMATCH", "the transaction was not sent by the intent's wallet");
      }
      const transfers = rows.filter((r) => r.to.toLowerCase() === payout);
      if (transfers.length > 0) return verifyUsdc(expected, tx, transfers, head?.number);
      if (tx.to === usdc.toLowerCase()) {
        return failure("PAYMENT_NOT_INDEXED", "this USDC transfer is not indexed yet; retry in a few seconds");
      }
      if (tx.to !== payout) return failure("PAYMENT_NOT_FOUND", "the transaction pays neither USDC nor ETH to the payout address");
      return verifyEth(expected, tx);
    },
  };
}

function verifyUsdc(
  expected: ExpectedPayment,
  tx: PaymentTransaction,
  transfers: IndexedPayment[],
  head: bigint | undefined,
): PaymentVerdict {
  const fromWallet = transfers.filter((t) => t.from.toLowerCase() === expected.wallet.toLowerCase());
  if (fromWallet.length === 0) return failure("PAYMENT_SENDER_MISMATCH", "the USDC was not transferred from the intent's wallet");
  const exact = fromWallet.find((t) => t.amount === expected.amountUsdc);
  if (!exact) {
    return failure("PAYMENT_AMOUNT_MISMATCH", "the USDC amount is not the intent's exact amount", {
      expected: expected.amountUsdc.toString(),
      received: fromWallet.map((t) => t.amount.toString()),
    });
  }
  if (exact.blockHash.toLowerCase() !== tx.blockHash) {
    return failure("PAYMENT_NOT_FINAL", "the indexed transfer is in a block the chain no longer has; retry shortly");
  }
  const confirmations = head === undefined ? 0 : Math.max(0, Number(head - exact.blockNumber));
  return settle(expected, { asset: "USDC", amount: exact.amount }, confirmations, Number(exact.timestamp));
}

function verifyEth(expected: ExpectedPayment, tx: PaymentTransaction): PaymentVerdict {
  if (expected.amountWei === null) {
    return failure("ETH_NOT_OFFERED", "this intent has no ETH amount (no live quote when it was created); pay in USDC");
  }
  if (!tx.succeeded) return failure("PAYMENT_FAILED", "the transaction reverted");
  if (tx.value !== expected.amountWei) {
    return failure("PAYMENT_AMOUNT_MISMATCH", "the ETH value is not the intent's exact amount", {
      expected: expected.amountWei.toString(),
      received: [tx.value.toString()],
    });
  }
  if (!tx.canonical) return failure("PAYMENT_NOT_FINAL", "the transaction's block is not canonical at the pinned head; retry shortly");
  return settle(expected, { asset: "ETH", amount: tx.value }, tx.confirmations, tx.blockTimestamp);
}

function settle(expected: ExpectedPayment, paid: VerifiedPayment, confirmations: number, blockTimestamp: number): PaymentVerdict {
  if (confirmations < requiredConfirmations) {
    return failure("PAYMENT_NOT_FINAL", `the payment has ${confirmations} of ${requiredConfirmations} confirmations; retry shortly`, {
      confirmations,
      required: requiredConfirmations,
    });
  }
  if (blockTimestamp * 1000 > expected.expiresAt.getTime()) {
    return failure("INTENT_EXPIRED", "the payment was mined after the intent expired; create a new intent (a refund is not automatic)");
  }
  return success(paid);
}
