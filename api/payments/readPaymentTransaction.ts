import { type Address, decodeEventLog, erc20Abi, type Hex } from "viem";
import { pinObservationBlock, pinReadsPerProvider } from "../chain/pinObservationBlock";
import type { RpcProvider } from "../chain/providers";
import { rpcBatch } from "../chain/rpcBatch";
import { countConfirmations } from "./confirmations";

/** One ERC-20 `Transfer` log of the token asked about, as the transaction's receipt holds it. */
export type ReceiptTransfer = { logIndex: number; from: Address; to: Address; amount: bigint };

/** A mined transaction as the providers report it, with its block's place in the pinned chain. */
export type PaymentTransaction = {
  from: Address;
  to: Address | null;
  value: bigint;
  succeeded: boolean;
  blockNumber: number;
  blockHash: Hex;
  /** Block time, Unix seconds. */
  blockTimestamp: number;
  /** Confirmations at the pinned head (the transaction's block is the first). */
  confirmations: number;
  /** The `Transfer` logs of the token asked about, from the receipt. */
  transfers: ReceiptTransfer[];
  /** The transaction's block is the one the pinned chain has at that height (no reorg since). */
  canonical: boolean;
};

export type ReadPaymentTransactionResult =
  | { status: "FOUND"; transaction: PaymentTransaction }
  | { status: "NOT_FOUND" }
  | { status: "UNAVAILABLE"; reason: string };

/**
 * RPC reads one payment read asks of each provider at most, whatever the hash: a pin, then the
 * transaction and its receipt (one batch) and, for a mined one, its block (of the trusted primary, or of
 * every public provider).
 */
export const paymentReadsPerProvider = pinReadsPerProvider + 3;

/**
 * Reads a transaction, its receipt (with the `Transfer` logs of `token`) and its block at evidence grade: one block is pinned across the
 * providers first (a trusted primary, or a public quorum), then the pinning provider, or under a
 * public quorum every public provider, is asked; a quorum needs two identical answers and none that
 * differ. Confirmations are counted to the pinned head.
 */
export async function readPaymentTransaction({
  providers,
  chainId,
  txHash,
  token,
}: {
  providers: readonly RpcProvider[];
  chainId: number;
  txHash: Hex;
  /** The token whose transfers the receipt is read for (USDC). */
  token: Address;
}): Promise<ReadPaymentTransactionResult> {
  const pinned = await pinObservationBlock({ providers, chainId });
  if (!pinned.evidenceGrade || pinned.blockNumber === null)
    return { status: "UNAVAILABLE", reason: pinned.reason ?? "no evidence-grade block" };
  const head = pinned.blockNumber;
  const askers =
    pinned.trustLevel === "TRUSTED_PRIMARY" ? providers.filter((p) => p.name === pinned.providerName) : providers.filter((p) => !p.trusted);
  const answers = await Promise.all(askers.map((p) => readFrom(p, txHash, head, token.toLowerCase())));
  const found = answers.filter((a): a is PaymentTransaction => typeof a === "object");
  const [first] = found;
  if (!first)
    return answers.includes("FAILED") ? { status: "UNAVAILABLE", reason: "the providers did not answer" } : { status: "NOT_FOUND" };
  const same = (a: PaymentTransaction) => JSON.stringify(a, bigintJson) === JSON.stringify(first, bigintJson);
  if (!found.every(same)) return { status: "UNAVAILABLE", reason: "the providers disagree about the transaction" };
  const needed = pinned.trustLevel === "TRUSTED_PRIMARY" ? 1 : 2;
  if (found.length < needed) return { status: "UNAVAILABLE", reason: "too few providers report the transaction" };
  return { status: "FOUND", transaction: first };
}

type RawTx = { from?: string; to?: string | null; value?: string; blockNumber?: string | null; blockHash?: string | null } | null;
type RawLog = { address?: string; topics?: Hex[]; data?: Hex; logIndex?: string };
type RawReceipt = { status?: string; blockNumber?: string; blockHash?: string; logs?: RawLog[] } | null;
type RawBlock = { hash?: string; timestamp?: string } | null;

async function readFrom(
  provider: RpcProvider,
  txHash: Hex,
  head: number,
  token: string,
): Promise<PaymentTransaction | "NOT_FOUND" | "FAILED"> {
  const [txOutcome, receiptOutcome] = await rpcBatch(provider, [
    { method: "eth_getTransactionByHash", params: [txHash] },
    { method: "eth_getTransactionReceipt", params: [txHash] },
  ]);
  if (!txOutcome?.ok || !receiptOutcome?.ok) return "FAILED";
  const tx = txOutcome.result as RawTx;
  const receipt = receiptOutcome.result as RawReceipt;
  if (!tx || !receipt || !tx.blockNumber || !receipt.blockNumber || !receipt.blockHash || !tx.from || tx.value === undefined)
    return "NOT_FOUND";
  const blockNumber = Number.parseInt(receipt.blockNumber, 16);
  const [blockOutcome] = await rpcBatch(provider, [{ method: "eth_getBlockByNumber", params: [receipt.blockNumber, false] }]);
  if (!blockOutcome?.ok) return "FAILED";
  const block = blockOutcome.result as RawBlock;
  return {
    from: tx.from.toLowerCase() as Address,
    to: (tx.to?.toLowerCase() ?? null) as Address | null,
    value: BigInt(tx.value),
    succeeded: receipt.status === "0x1",
    blockNumber,
    blockHash: receipt.blockHash.toLowerCase() as Hex,
    blockTimestamp: block?.timestamp ? Number.parseInt(block.timestamp, 16) : 0,
    confirmations: countConfirmations(head, blockNumber),
    canonical: block?.hash?.toLowerCase() === receipt.blockHash.toLowerCase() && blockNumber <= head,
    transfers: (receipt.logs ?? []).flatMap((log) => (log.address?.toLowerCase() === token ? decodeTransfer(log) : [])),
  };
}

function decodeTransfer(log: RawLog): ReceiptTransfer[] {
  try {
    const event = decodeEventLog({ abi: erc20Abi, data: log.data ?? "0x", topics: (log.topics ?? []) as [Hex, ...Hex[]] });
    if (event.eventName !== "Transfer") return [];
    const { from, to, value } = event.args;
    return [
      {
        logIndex: Number.parseInt(log.logIndex ?? "0x0", 16),
        from: from.toLowerCase() as Address,
        to: to.toLowerCase() as Address,
        amount: value,
      },
    ];
  } catch {
    return [];
  }
}

function bigintJson(_key: string, value: unknown) {
  return typeof value === "bigint" ? value.toString() : value;
}
