import type { Abi, Hash } from "viem";
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

/** The first line of an error: viem's messages carry the whole request after it. */
function brief(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split("\n")[0] ?? message;
}
