import { type Address, encodeFunctionData, erc20Abi, type Hex } from "viem";
import { FiatTokenAbi } from "../../abis/FiatTokenAbi";
import { pinObservationBlock, pinReadsPerProvider } from "../chain/pinObservationBlock";
import type { RpcProvider } from "../chain/providers";
import { readAtEvidenceGrade } from "../chain/readAtEvidenceGrade";
import type { PayerCommitment } from "../store/x402PaymentQueries";
import { blockTimestampCode } from "./resolvePendingSettlement";

/** A payer's balance at one block, and what its payments in flight still take from it. */
export type PayerFunds = {
  balance: bigint;
  /** The read block's timestamp: a settlement recorded after it may not be in `balance` yet. */
  blockTime: Date;
  /** What `commitments` may still take: each one's amount unless its authorization was used by that block or can no longer be. */
  committed(commitments: readonly PayerCommitment[]): bigint;
};

/** The payer's funds at an evidence-grade block (its payments in flight `known` read there too); null when the chain cannot say. */
export type ReadPayerFunds = (payer: Address, known: readonly PayerCommitment[]) => Promise<PayerFunds | null>;

export type PayerFundsOnChainParameters = {
  providers: readonly RpcProvider[];
  chainId: number;
  /** The token paid in (USDC): its balance and EIP-3009 authorization states. */
  token: Address;
  /**
   * Authorization states read per admission at most (X402_PAYER_AUTHORIZATION_READS): a payer's recent
   * payments would otherwise each add a read to every payment it sends, one refused included.
   */
  maxAuthorizationReads: number;
};

/**
 * RPC reads one payer-funds read asks of each provider at most besides its authorization states
 * (`maxAuthorizationReads`): a pin, the balance and the block's timestamp.
 */
export const payerFundsReadsPerProvider = pinReadsPerProvider + 2;

/**
 * Reads a payer's balance at a pinned evidence-grade block, with the state of known authorizations in
 * flight (at most `maxAuthorizationReads`, settled payments' first) and the block's timestamp, in one
 * batch. An authorization used by then is in the balance already; one unused at a block past its
 * `validBefore` can never move money; any other (including one claimed after this read, or one whose
 * state was not read) is counted whole.
 */
export function payerFundsOnChain({ providers, chainId, token, maxAuthorizationReads }: PayerFundsOnChainParameters): ReadPayerFunds {
  return async (payer, known) => {
    const block = await pinObservationBlock({ providers, chainId });
    if (!block.evidenceGrade) return null;
    const nonces = authorizationsWorthReading(known, maxAuthorizationReads);
    const [balance, timestamp, ...states] = await readAtEvidenceGrade(block, providers, [
      { kind: "call", to: token, data: encodeFunctionData({ abi: erc20Abi, functionName: "balanceOf", args: [payer] }) },
      { kind: "call", data: blockTimestampCode },
      ...nonces.map((nonce) => ({
        kind: "call" as const,
        to: token,
        data: encodeFunctionData({ abi: FiatTokenAbi, functionName: "authorizationState", args: [payer, nonce] }),
      })),
    ]);
    if (!balance?.ok || !timestamp?.ok) return null;
    const now = BigInt(timestamp.value);
    const used = new Set(nonces.filter((_, i) => states[i]?.ok === true && BigInt(states[i].value) !== 0n).map((n) => n.toLowerCase()));
    const mayTake = (c: PayerCommitment) =>
      !(c.nonce && used.has(c.nonce.toLowerCase())) && !(c.validBefore !== null && now >= c.validBefore);
    return {
      balance: BigInt(balance.value),
      blockTime: new Date(Number(now) * 1000),
      committed: (commitments) => commitments.filter(mayTake).reduce((sum, c) => sum + c.amount, 0n),
    };
  };
}

/**
 * The nonces whose state one admission reads: settled payments' first, the newest first, as only an
 * authorization used by the read block leaves the sum (a claimed one is almost always unused yet, and counts
 * whole unread too), and the newest are those the claim counts (older ones fall out of its window).
 */
function authorizationsWorthReading(known: readonly PayerCommitment[], max: number): Hex[] {
  const settledAt = (c: PayerCommitment) => c.settledAt?.getTime() ?? 0;
  const settled = known.filter((c) => c.status === "SETTLED").sort((a, b) => settledAt(b) - settledAt(a));
  const settledFirst = [...settled, ...known.filter((c) => c.status !== "SETTLED")];
  return settledFirst.flatMap((c) => (c.nonce ? [c.nonce as Hex] : [])).slice(0, max);
}
