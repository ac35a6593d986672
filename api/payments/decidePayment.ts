import type { Address } from "viem";
import { failure, type Result, success } from "../errors";
import type { IndexedChainHead } from "../index/readChainHead";
import type { IndexedPayment } from "../index/readPayments";
import { countConfirmations, requiredConfirmations } from "./confirmations";
import type { PaymentTransaction, ReadPaymentTransactionResult, ReceiptTransfer } from "./readPaymentTransaction";

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

export type DecidePaymentParameters = {
  expected: ExpectedPayment;
  /** The transaction, its receipt's USDC `Transfer` logs and its block, read at evidence grade. */
  read: ReadPaymentTransactionResult;
  /** The index's `payment` rows for the same transaction. */
  rows: IndexedPayment[];
  /** The index's newest block (`chain_head`); undefined before the indexer has processed one. */
  indexHead: IndexedChainHead["number"] | undefined;
  payTo: Address;
  usdc: Address;
  /** Where a disagreement between the index and the chain is reported. */
  warn: (message: string) => void;
};

/**
 * The payment rules, apart from the reads that feed them (createPaymentVerifier), so that fast tests
 * can give them evidence-grade reads and index rows directly: sender, exact amount, recipient,
 * finality (3 confirmations on the chain and the index, canonical block) and expiry.
 */
export function decidePayment({ expected, read, rows, indexHead, payTo, usdc, warn }: DecidePaymentParameters): PaymentVerdict {
  const payout = payTo.toLowerCase();
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
  const paid = tx.transfers.filter((t) => t.to === payout);
  if (paid.length > 0) {
    const indexed = rows.filter((r) => r.to.toLowerCase() === payout);
    return verifyUsdc(expected, tx, { paid, indexed, indexHead, warn });
  }
  if (tx.to === usdc.toLowerCase()) {
    return tx.succeeded
      ? failure("PAYMENT_NOT_FOUND", "this USDC transaction transfers nothing to the payout address")
      : failure("PAYMENT_FAILED", "the transaction reverted");
  }
  if (tx.to !== payout) return failure("PAYMENT_NOT_FOUND", "the transaction pays neither USDC nor ETH to the payout address");
  return verifyEth(expected, tx);
}

type UsdcEvidence = Pick<DecidePaymentParameters, "indexHead" | "warn"> & {
  /** The receipt's transfers to the payout address (evidence grade). */
  paid: ReceiptTransfer[];
  /** The index's rows for the same transaction. */
  indexed: IndexedPayment[];
};

function verifyUsdc(expected: ExpectedPayment, tx: PaymentTransaction, evidence: UsdcEvidence): PaymentVerdict {
  const wallet = expected.wallet.toLowerCase();
  const fromWallet = evidence.paid.filter((t) => t.from === wallet);
  if (fromWallet.length === 0) return failure("PAYMENT_SENDER_MISMATCH", "the USDC was not transferred from the intent's wallet");
  const exact = fromWallet.find((t) => t.amount === expected.amountUsdc);
  if (!exact) {
    return failure("PAYMENT_AMOUNT_MISMATCH", "the USDC amount is not the intent's exact amount", {
      expected: expected.amountUsdc.toString(),
      received: fromWallet.map((t) => t.amount.toString()),
    });
  }
  const row = evidence.indexed.find((r) => r.logIndex === exact.logIndex);
  if (!row) return failure("PAYMENT_NOT_INDEXED", "this USDC transfer is not indexed yet; retry in a few seconds");
  if (row.amount !== exact.amount || row.from.toLowerCase() !== exact.from) {
    evidence.warn(`the indexed transfer (log ${row.logIndex}) disagrees with the receipt read at evidence grade; claim refused`);
    return row.amount !== exact.amount
      ? failure("PAYMENT_AMOUNT_MISMATCH", "the indexed USDC amount and the transaction's receipt disagree; the claim is refused", {
          expected: expected.amountUsdc.toString(),
          received: [row.amount.toString()],
        })
      : failure("PAYMENT_SENDER_MISMATCH", "the indexed USDC sender and the transaction's receipt disagree; the claim is refused");
  }
  if (row.blockHash.toLowerCase() !== tx.blockHash || !tx.canonical) {
    return failure("PAYMENT_NOT_FINAL", "the transfer's block is not the chain's canonical one (a reorg); retry shortly");
  }
  // Final when both the chain (at evidence grade) and the index have seen 3 confirmations.
  const indexed = evidence.indexHead === undefined ? 0 : countConfirmations(evidence.indexHead, row.blockNumber);
  return settle(expected, { asset: "USDC", amount: exact.amount }, Math.min(tx.confirmations, indexed), tx.blockTimestamp);
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
