import { type Abi, type Address, type EncodeFunctionDataParameters, encodeFunctionData, type Hash, numberToHex } from "viem";
import type { DevnetClient } from "./client";

export type TrafficCall = {
  /** What the transaction does, for the log. */
  label: string;
  address: `0x${string}`;
  abi: Abi;
  functionName: string;
  args: readonly unknown[];
  /** A fixed gas limit: no estimation, so a call that would revert is still mined and uses its nonce. */
  gas: bigint;
  /** Native ETH sent along (Uniswap V4 pools of ETH). */
  value?: bigint;
};

/** How long one batch may wait for its receipts before it is given up (anvil stopped, say). */
const receiptTimeoutMs = 30_000;

/**
 * Sends batches of transactions from one account with locally counted nonces, so a batch goes out
 * without waiting for blocks; a failed send resynchronises the count from the node.
 */
export function createTrafficSender(client: DevnetClient, log: (message: string) => void) {
  let nextNonce: number | undefined;

  async function submit(call: TrafficCall): Promise<{ label: string; hash: Hash } | undefined> {
    try {
      nextNonce ??= await client.getTransactionCount({ address: client.account.address, blockTag: "pending" });
      const nonce = nextNonce;
      const hash = await client.writeContract({
        address: call.address,
        abi: call.abi,
        functionName: call.functionName,
        args: call.args,
        gas: call.gas,
        value: call.value,
        nonce,
      } as Parameters<DevnetClient["writeContract"]>[0]);
      nextNonce = nonce + 1;
      return { label: call.label, hash };
    } catch (error) {
      nextNonce = undefined;
      log(`traffic: ${call.label} not sent: ${brief(error)}`);
      return undefined;
    }
  }

  /** Sends the calls in order, then waits for all their receipts; reverts are logged, never thrown. */
  async function sendBatch(calls: TrafficCall[]): Promise<number> {
    const sent = [];
    for (const call of calls) {
      const tx = await submit(call);
      if (tx) sent.push(tx);
    }
    const outcomes = await Promise.all(
      sent.map(async ({ label, hash }) => {
        try {
          const receipt = await client.waitForTransactionReceipt({ hash, timeout: receiptTimeoutMs });
          if (receipt.status === "success") return true;
          log(`traffic: ${label} reverted (${hash})`);
        } catch (error) {
          log(`traffic: ${label} has no receipt: ${brief(error)}`);
        }
        return false;
      }),
    );
    return outcomes.filter(Boolean).length;
  }

  return { sendBatch };
}

/**
 * Sends each batch as one JSON-RPC batch of `eth_sendTransaction` from `from`, one of anvil's unlocked
 * accounts (anvil signs, this process does not), with locally counted nonces, and does not wait for
 * receipts: at Base's rates a block carries a hundred and more of them. A refused transaction is logged
 * and the count resynchronised from the node. Resolves with how many were accepted.
 */
export function createUnlockedBatchSender(rpcUrl: string, from: Address, log: (message: string) => void) {
  let nextNonce: number | undefined;
  const post = async (body: unknown) =>
    (await fetch(rpcUrl, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })).json();

  return async function sendUnlocked(calls: TrafficCall[]): Promise<number> {
    if (calls.length === 0) return 0;
    const nonce =
      nextNonce ??
      Number(
        ((await post({ jsonrpc: "2.0", id: 0, method: "eth_getTransactionCount", params: [from, "pending"] })) as { result: string })
          .result,
      );
    const batch = calls.map((call, id) => ({
      jsonrpc: "2.0",
      id,
      method: "eth_sendTransaction",
      params: [
        {
          from,
          to: call.address,
          data: encodeFunctionData({ abi: call.abi, functionName: call.functionName, args: call.args } as EncodeFunctionDataParameters),
          gas: numberToHex(call.gas),
          nonce: numberToHex(nonce + id),
          ...(call.value ? { value: numberToHex(call.value) } : {}),
        },
      ],
    }));
    const answers = (await post(batch)) as { id: number; error?: { message: string } }[];
    const refused = answers.filter((answer) => answer.error);
    for (const answer of refused) log(`traffic: ${calls[answer.id]?.label} not sent: ${answer.error?.message}`);
    nextNonce = refused.length > 0 ? undefined : nonce + calls.length;
    return calls.length - refused.length;
  };
}

/** The first line of an error: viem's messages carry the whole request after it. */
function brief(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split("\n")[0] ?? message;
}
