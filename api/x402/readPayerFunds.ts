import { type Address, encodeFunctionData, erc20Abi, type Hex } from "viem";
import { FiatTokenAbi } from "../../abis/FiatTokenAbi";
import { pinObservationBlock } from "../chain/pinObservationBlock";
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
};

/**
 * Reads a payer's balance at a pinned evidence-grade block, with the state of each known authorization
 * in flight and the block's timestamp, in one batch. An authorization used by then is in the balance
 * already; one unused at a block past its `validBefore` can never move money; any other (including one
 * claimed after this read) is counted whole.
 */
export function payerFundsOnChain({ providers, chainId, token }: PayerFundsOnChainParameters): ReadPayerFunds {
  return async (payer, known) => {
    const block = await pinObservationBlock({ providers, chainId });
    if (!block.evidenceGrade) return null;
    const nonces = known.flatMap((c) => (c.nonce ? [c.nonce as Hex] : []));
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
