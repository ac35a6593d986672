import type { Address, Hex } from "viem";
import type { RpcProvider } from "../chain/providers";
import type { IndexDb } from "../index/indexDb";
import { readChainHead } from "../index/readChainHead";
import { readPaymentsByTxHash } from "../index/readPayments";
import { decidePayment, type ExpectedPayment, type PaymentVerdict } from "./decidePayment";
import { readPaymentTransaction } from "./readPaymentTransaction";

export type PaymentVerifier = { verify(expected: ExpectedPayment, txHash: Hex): Promise<PaymentVerdict> };

export type CreatePaymentVerifierParameters = {
  /** The indexed tables: `payment` (USDC transfers to the payout address) and `chain_head`. */
  indexDb: IndexDb;
  providers: readonly RpcProvider[];
  chainId: number;
  payTo: Address;
  usdc: Address;
  /** Where a disagreement between the index and the chain is reported (an operator should look). */
  warn?: (message: string) => void;
};

/**
 * Checks that `txHash` pays an intent: sent by the intent's wallet, exactly the frozen amount, to the
 * payout address, in a block at or before the intent's expiry, with 3 confirmations. The transaction,
 * its receipt and its block are read at evidence grade (a trusted primary, or public providers that
 * agree); they decide. For USDC the index only finds the payment and tracks finality: the amount,
 * sender and recipient are the receipt's `Transfer` log's, and an indexed row that disagrees with it
 * refuses the claim (and is reported), so no single untrusted provider feeding the index decides.
 * The three reads are made here; decidePayment applies the rules to them.
 */
export function createPaymentVerifier(p: CreatePaymentVerifierParameters): PaymentVerifier {
  const { indexDb, providers, chainId, usdc } = p;
  const warn = p.warn ?? ((message: string) => console.warn(message));
  return {
    async verify(expected, txHash) {
      const hash = txHash.toLowerCase() as Hex;
      const [read, rows, head] = await Promise.all([
        readPaymentTransaction({ providers, chainId, txHash: hash, token: usdc }),
        readPaymentsByTxHash(indexDb, chainId, hash),
        readChainHead(indexDb, chainId),
      ]);
      return decidePayment({
        expected,
        read,
        rows,
        indexHead: head?.number,
        payTo: p.payTo,
        usdc,
        warn: (m) => warn(`[payments] ${hash}: ${m}`),
      });
    },
  };
}
