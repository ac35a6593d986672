import { type Address, decodeFunctionResult, encodeFunctionData, type Hex, parseAbi } from "viem";
import type { ObservationBlock } from "../chain/ObservationBlock";
import { pinObservationBlock } from "../chain/pinObservationBlock";
import type { RpcProvider } from "../chain/providers";
import { readAtEvidenceGrade } from "../chain/readAtEvidenceGrade";
import { batchEscrowAddress } from "./escrowCodeCheck";

// The escrow's public views the claim job reads (the package keeps its ABI to itself).
const escrowViews = parseAbi([
  "function channels(bytes32 channelId) view returns (uint128 balance, uint128 totalClaimed)",
  "function pendingWithdrawals(bytes32 channelId) view returns (uint128 amount, uint40 initiatedAt)",
  "function receivers(address receiver, address token) view returns (uint128 totalClaimed, uint128 totalSettled)",
]);

/**
 * A channel as the escrow holds it: its balance, what its claims took, whether the payer's timed withdrawal is
 * pending, and the number of the block it was read at.
 */
export type EscrowChannel = { balance: bigint; totalClaimed: bigint; withdrawalPending: boolean; blockNumber: number };

/** The escrow's state at an evidence-grade block; null: it could not be read at evidence grade now. */
export type EscrowState = {
  /**
   * The channels read, by channel id (lowercase), in batches of `channelsPerRead`: a batch that cannot be
   * read at evidence grade leaves its channels out (they are not claimed until read).
   */
  channels(channelIds: readonly string[]): Promise<Map<string, EscrowChannel>>;
  /** What the escrow has claimed for `receiver` in `token` and not yet sent it (`settle` sends it). */
  unsettled(receiver: Address, token: Address): Promise<bigint | null>;
};

export type EscrowStateOnChainParameters = { providers: readonly RpcProvider[]; chainId: number };

/** Channels read in one JSON-RPC batch (two calls each): providers cap a batch's size, often at 100 calls. */
export const channelsPerRead = 50;

/**
 * The escrow read at an evidence-grade pinned block, a JSON-RPC batch at a time: the trusted primary's answer,
 * or one that a public quorum agrees on. What is claimed and swept is money, so no single untrusted
 * provider decides it.
 */
export function escrowStateOnChain({ providers, chainId }: EscrowStateOnChainParameters): EscrowState {
  const call = (data: Hex) => ({ kind: "call" as const, to: batchEscrowAddress, data });

  async function read(block: ObservationBlock, data: readonly Hex[]): Promise<Hex[] | null> {
    const answers = await readAtEvidenceGrade(block, providers, data.map(call));
    return answers.every((a) => a.ok) ? answers.map((a) => (a as { value: Hex }).value) : null;
  }

  /** One batch of channels at `block`, or null when it could not be read at evidence grade. */
  async function readBatch(block: ObservationBlock, channelIds: readonly string[]): Promise<[string, EscrowChannel][] | null> {
    const data = channelIds.flatMap((id) => [
      encodeFunctionData({ abi: escrowViews, functionName: "channels", args: [id as Hex] }),
      encodeFunctionData({ abi: escrowViews, functionName: "pendingWithdrawals", args: [id as Hex] }),
    ]);
    const values = await read(block, data);
    if (!values) return null;
    return channelIds.map((id, i) => {
      const [balance, totalClaimed] = decodeFunctionResult({ abi: escrowViews, functionName: "channels", data: values[2 * i] as Hex });
      const [, initiatedAt] = decodeFunctionResult({
        abi: escrowViews,
        functionName: "pendingWithdrawals",
        data: values[2 * i + 1] as Hex,
      });
      return [id.toLowerCase(), { balance, totalClaimed, withdrawalPending: initiatedAt !== 0, blockNumber: block.blockNumber ?? 0 }];
    });
  }

  return {
    async channels(channelIds) {
      const found = new Map<string, EscrowChannel>();
      // One pin for every batch: the channels are read at one block, and each provider's head is asked once.
      const block = await pinObservationBlock({ providers, chainId });
      for (let start = 0; start < channelIds.length; start += channelsPerRead) {
        for (const [id, channel] of (await readBatch(block, channelIds.slice(start, start + channelsPerRead))) ?? [])
          found.set(id, channel);
      }
      return found;
    },
    async unsettled(receiver, token) {
      const values = await read(await pinObservationBlock({ providers, chainId }), [
        encodeFunctionData({ abi: escrowViews, functionName: "receivers", args: [receiver, token] }),
      ]);
      if (!values) return null;
      const [claimed, settled] = decodeFunctionResult({ abi: escrowViews, functionName: "receivers", data: values[0] as Hex });
      return claimed - settled;
    },
  };
}
