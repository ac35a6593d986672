import { type Address, type Hex, zeroAddress } from "viem";
import type { ObservationBlock, RecordedCall, RpcObservation } from "./ObservationBlock";
import type { RpcProvider } from "./providers";
import { type RpcOutcome, type RpcRequest, rpcBatch } from "./rpcBatch";

/** One state-bearing read, always made at the pinned block. */
export type PinnedRead =
  | { kind: "code"; address: Address }
  | { kind: "storage"; address: Address; slot: Hex }
  | {
      kind: "call";
      /** Absent: a deployless call (the data is creation code). */
      to?: Address;
      data: Hex;
      from?: Address;
      value?: Hex;
      /** Hex gas limit of the call. */
      gas?: Hex;
      /** eth_call's state override set (code, balance or storage slots by address). */
      stateOverride?: StateOverrideSet;
    };

/** eth_call's third parameter, as JSON-RPC takes it. */
export type StateOverrideSet = Record<Address, { code?: Hex; balance?: Hex; stateDiff?: Record<Hex, Hex> }>;

export type PinnedReadResult = { ok: true; value: Hex } | { ok: false; error: string; reverted: boolean };

export type PinnedReader = {
  block: ObservationBlock;
  /** Reads several values in one JSON-RPC batch at the pinned block hash. */
  read(reads: readonly PinnedRead[]): Promise<PinnedReadResult[]>;
  observation(): RpcObservation;
};

/**
 * A reader bound to one pinned block: every read names the block by hash (EIP-1898), so a reorg or a
 * provider at another head cannot mix states. Reads go to the provider that pinned the block; a
 * transport failure is retried once on another provider that agreed on the hash.
 */
export function createPinnedReader(block: ObservationBlock, providers: readonly RpcProvider[]): PinnedReader {
  const ordered = [...providers].sort((a, b) => Number(b.name === block.providerName) - Number(a.name === block.providerName));
  const calls: RecordedCall[] = [];
  const failures: RpcObservation["failures"] = [];
  let roundTrips = 0;

  async function read(reads: readonly PinnedRead[]): Promise<PinnedReadResult[]> {
    if (reads.length === 0) return [];
    if (block.status !== "PINNED" || !block.blockHash) {
      return reads.map(() => ({ ok: false, error: "no pinned block", reverted: false }));
    }
    const at = { blockHash: block.blockHash };
    const requests = reads.map((r) => toRequest(r, at));
    let outcomes: RpcOutcome[] = [];
    let provider = ordered[0];
    for (const candidate of ordered.slice(0, 2)) {
      provider = candidate;
      roundTrips += 1;
      outcomes = await rpcBatch(candidate, requests);
      if (!outcomes.every((o) => !o.ok && (o.error === "unreachable" || o.error === "timeout" || o.error.startsWith("HTTP")))) break;
    }
    return reads.map((r, i) => {
      const outcome = outcomes[i] ?? { ok: false as const, error: "no answer" };
      const result = toResult(outcome);
      const method = requests[i]?.method ?? "";
      const target = r.kind === "call" ? (r.to ?? zeroAddress) : r.address;
      const status = result.ok ? "OK" : result.reverted ? "REVERTED" : "FAILED";
      calls.push({ method, blockTag: block.blockTag ?? "", status, provider: provider?.name ?? "", target });
      if (!result.ok && !result.reverted) failures.push({ method, target, error: result.error });
      return result;
    });
  }

  return {
    block,
    read,
    observation: () => ({
      pinnedBlockTag: block.blockTag,
      stateBearingCallCount: calls.length,
      failedReadCount: failures.length,
      failures: [...failures],
      calls: [...calls],
      roundTrips,
      observationReused: false,
    }),
  };
}

function toRequest(r: PinnedRead, at: { blockHash: Hex }): RpcRequest {
  if (r.kind === "code") return { method: "eth_getCode", params: [r.address, at] };
  if (r.kind === "storage") return { method: "eth_getStorageAt", params: [r.address, r.slot, at] };
  const tx: Record<string, string> = { data: r.data };
  if (r.to) tx.to = r.to;
  if (r.from) tx.from = r.from;
  if (r.value) tx.value = r.value;
  if (r.gas) tx.gas = r.gas;
  return { method: "eth_call", params: r.stateOverride ? [tx, at, r.stateOverride] : [tx, at] };
}

function toResult(outcome: RpcOutcome): PinnedReadResult {
  if (outcome.ok) {
    return typeof outcome.result === "string" && /^0x[0-9a-fA-F]*$/.test(outcome.result)
      ? { ok: true, value: outcome.result.toLowerCase() as Hex }
      : { ok: false, error: "malformed result", reverted: false };
  }
  // JSON-RPC 3 (and anvil's -32003/"execution reverted") is the call's own revert: an observation, not a read failure.
  const reverted = outcome.code === 3 || /revert/i.test(outcome.error);
  return { ok: false, error: outcome.error, reverted };
}
