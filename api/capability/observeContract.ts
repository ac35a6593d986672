import type { Address, Hex } from "viem";
import { combineRpcObservations } from "../chain/combineRpcObservations";
import { createPinnedReader, type PinnedReader } from "../chain/createPinnedReader";
import type { ObservationBlock, RpcObservation } from "../chain/ObservationBlock";
import { pinObservationBlock } from "../chain/pinObservationBlock";
import type { RpcProvider } from "../chain/providers";
import { analyseContract, type DissectedCode } from "./analyseContract";
import type { DissectionCache } from "./createDissectionCache";
import type { ObservationCache } from "./createObservationCache";
import type { Resolution } from "./Resolution";

export type ContractObservation = {
  block: ObservationBlock;
  /** This request's reader at the pinned block, for reads of its own (the preflight's eth_call). */
  reader: PinnedReader;
  resolution: Resolution;
  /** Every piece of code on the resolution path (and each Diamond facet) within the observation limits, dissected. */
  dissected: DissectedCode[];
  rpcObservation: () => RpcObservation;
};

export type ObserveContractParameters = {
  providers: readonly RpcProvider[];
  chainId: number;
  address: Address;
  selector?: Hex;
  blockNumber?: number;
  /** Shares observations between requests at the same pinned block; absent, every call observes afresh. */
  observationCache?: ObservationCache;
  /** Keeps dissections by code hash across blocks; absent, every observation dissects afresh. */
  dissectionCache?: DissectionCache;
};

/** Why no observation could be made at all: the caller answers 503 (or 400 for a future block). */
export type ObservationFailure = {
  ok: false;
  reason: "NO_PROVIDER_ANSWERED" | "REQUESTED_BLOCK_NOT_YET_MINED" | "READ_FAILED";
  block: ObservationBlock;
  /** State-bearing reads this request made before it failed (none when it shared another request's). */
  reads: number;
};

/**
 * Pins one block, then resolves `address` through its proxies at that block and dissects every code on
 * the way (or reuses that analysis from `observationCache` for the same block hash): the common core of
 * audit, score and preflight.
 */
export async function observeContract(
  params: ObserveContractParameters,
): Promise<{ ok: true; observation: ContractObservation } | ObservationFailure> {
  const block = await pinObservationBlock({ providers: params.providers, chainId: params.chainId, blockNumber: params.blockNumber });
  if (block.status !== "PINNED") {
    return {
      ok: false,
      reason: block.reason === "REQUESTED_BLOCK_NOT_YET_MINED" ? "REQUESTED_BLOCK_NOT_YET_MINED" : "NO_PROVIDER_ANSWERED",
      block,
      reads: 0,
    };
  }
  const analyse = () =>
    analyseContract(createPinnedReader(block, params.providers), params.address, params.selector, params.dissectionCache?.dissect);
  const { analysis, reused } = params.observationCache
    ? await params.observationCache.observe({ block, address: params.address, selector: params.selector }, analyse)
    : { analysis: await analyse(), reused: false };
  const { resolution, dissected, reads } = analysis;
  if (resolution.status === "INCOMPLETE" && resolution.reason.startsWith("READ_FAILED") && resolution.nodes.length === 0) {
    return { ok: false, reason: "READ_FAILED", block, reads: reused ? 0 : reads.stateBearingCallCount };
  }
  const reader = createPinnedReader(block, params.providers);
  return {
    ok: true,
    observation: {
      block,
      reader,
      resolution,
      dissected,
      rpcObservation: () => combineRpcObservations(reads, reader.observation(), reused),
    },
  };
}
