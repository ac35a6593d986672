import { type Address, encodeEventTopics, encodeFunctionData, type Hex } from "viem";
import { FiatTokenAbi } from "../../abis/FiatTokenAbi";
import { pinObservationBlock } from "../chain/pinObservationBlock";
import type { RpcProvider } from "../chain/providers";
import { readAtEvidenceGrade } from "../chain/readAtEvidenceGrade";
import { rpcBatch } from "../chain/rpcBatch";
import type { ConfirmSettlement } from "./confirmSettlement";

/** A settlement whose outcome is unknown: the authorization it carried, and the transaction when one is known. */
export type PendingSettlement = {
  from: Address;
  to: Address;
  amount: bigint;
  nonce: Hex;
  /** End of the authorization's validity, Unix seconds. */
  validBefore: bigint;
  txHash: Hex | null;
};

export type SettlementResolution = { status: "SETTLED"; txHash: Hex } | { status: "FAILED"; reason: string } | { status: "PENDING" };

export type ResolvePendingSettlement = (pending: PendingSettlement) => Promise<SettlementResolution>;

export type ChainResolutionParameters = {
  providers: readonly RpcProvider[];
  chainId: number;
  /** The token paid in (USDC): its EIP-3009 authorization state and events. */
  token: Address;
  /** How a candidate transaction is confirmed (at evidence grade). */
  confirmSettlement: ConfirmSettlement;
  /** Blocks back from the head searched for the authorization's use (1,000: over half an hour of Base). */
  searchBlocks?: number;
};

/** Creation code that returns the block's TIMESTAMP (TIMESTAMP PUSH1 0 MSTORE PUSH1 32 PUSH1 0 RETURN), read as a deployless call. */
export const blockTimestampCode = "0x4260005260206000f3";

/**
 * Resolves a pending settlement from the chain, so that neither a lost answer nor one provider decides
 * it: the known transaction confirmed at evidence grade settles it; else the authorization's state is
 * read at evidence grade. Used: the transaction that used it (found by its `AuthorizationUsed` event)
 * must be confirmed at evidence grade to count. Unused at a block whose own timestamp is past its
 * `validBefore`: no later block can use it (EIP-3009 requires `block.timestamp < validBefore`), so the
 * payment failed and nothing was taken; judged by the chain's time, never ours, so a provider that
 * lags cannot make a late transfer look expired. Anything less stays pending.
 */
export function chainResolution({
  providers,
  chainId,
  token,
  confirmSettlement,
  searchBlocks = 1_000,
}: ChainResolutionParameters): ResolvePendingSettlement {
  const confirmed = async (txHash: Hex, p: PendingSettlement) =>
    (await confirmSettlement(txHash, { from: p.from, to: p.to, amount: p.amount })) === "CONFIRMED";

  return async (p) => {
    if (p.txHash && (await confirmed(p.txHash, p))) return { status: "SETTLED", txHash: p.txHash };
    const block = await pinObservationBlock({ providers, chainId });
    if (!block.evidenceGrade || block.blockNumber === null) return { status: "PENDING" };
    const data = encodeFunctionData({ abi: FiatTokenAbi, functionName: "authorizationState", args: [p.from, p.nonce] });
    const [state, timestamp] = await readAtEvidenceGrade(block, providers, [
      { kind: "call", to: token, data },
      { kind: "call", data: blockTimestampCode },
    ]);
    if (!state?.ok) return { status: "PENDING" };
    if (BigInt(state.value) === 0n) {
      const expired = timestamp?.ok === true && BigInt(timestamp.value) >= p.validBefore;
      return expired ? { status: "FAILED", reason: "authorization_expired_unused" } : { status: "PENDING" };
    }
    const candidate = await findAuthorizationUse(providers, token, p, block.blockNumber - searchBlocks);
    if (candidate && (await confirmed(candidate, p))) return { status: "SETTLED", txHash: candidate };
    return { status: "PENDING" };
  };
}

/** The transaction that used the authorization, as one provider reports it (a candidate, confirmed by the caller). */
async function findAuthorizationUse(
  providers: readonly RpcProvider[],
  token: Address,
  p: PendingSettlement,
  fromBlock: number,
): Promise<Hex | null> {
  const topics = encodeEventTopics({ abi: FiatTokenAbi, eventName: "AuthorizationUsed", args: { authorizer: p.from, nonce: p.nonce } });
  for (const provider of providers) {
    const [outcome] = await rpcBatch(provider, [
      {
        method: "eth_getLogs",
        params: [{ address: token, topics, fromBlock: `0x${Math.max(0, fromBlock).toString(16)}`, toBlock: "latest" }],
      },
    ]);
    const logs = outcome?.ok ? (outcome.result as { transactionHash?: Hex }[]) : null;
    const hash = Array.isArray(logs) ? logs[0]?.transactionHash : undefined;
    if (hash) return hash;
  }
  return null;
}
