import type { Address, Hex } from "viem";
import type { ObservationBlock } from "../chain/ObservationBlock";
import type { ContractAnalysis } from "./analyseContract";

export type CreateObservationCacheParameters = {
  /** Observations kept (finished or in flight); the least recently used goes first. */
  maxEntries?: number;
  /** Dissected bytecode bytes behind the kept observations, together: bounds the memory a few huge ones take. */
  maxDissectedBytes?: number;
};

/** Whose observation an analysis is: the pinned block (by hash), the provider read from, the address and the selector. */
export type ObservationKey = { block: ObservationBlock; address: Address; selector?: Hex };

export type ObservationCache = {
  /** The analysis for `key`: a kept one (or the one in flight) when there is one, else `analyse()`, kept for later requests. */
  observe(key: ObservationKey, analyse: () => Promise<ContractAnalysis>): Promise<{ analysis: ContractAnalysis; reused: boolean }>;
  /** Observations kept now. */
  size(): number;
};

/**
 * 128 observations: at Base's 2-second blocks an observation is only asked for again within its block or
 * the next few, and 128 covers far more distinct addresses per block than the rate limits let through.
 */
export const defaultObservationCacheEntries = 128;

/** 16 MiB of dissected code: four observations at the per-observation budget of 4 MiB, hundreds of ordinary ones. */
export const defaultObservationCacheBytes = 16 * 1024 * 1024;

/**
 * A small LRU in process memory of finished contract observations, keyed by the pinned block's hash (so an
 * observation is never served for another block, and ages out as blocks pass), shared while in flight so
 * concurrent requests for the same address at the same block do the work once. Observations whose reads
 * failed are not kept, nor are failed analyses.
 */
export function createObservationCache({
  maxEntries = defaultObservationCacheEntries,
  maxDissectedBytes = defaultObservationCacheBytes,
}: CreateObservationCacheParameters = {}): ObservationCache {
  type Entry = { analysis: Promise<ContractAnalysis>; bytes: number };
  const entries = new Map<string, Entry>();
  let bytes = 0;

  const forget = (key: string, entry: Entry) => {
    if (entries.get(key) !== entry) return;
    entries.delete(key);
    bytes -= entry.bytes;
  };
  const evict = () => {
    for (const [key, entry] of entries) {
      if (entries.size <= maxEntries && bytes <= maxDissectedBytes) return;
      forget(key, entry);
    }
  };

  return {
    async observe(key, analyse) {
      if (key.block.status !== "PINNED" || key.block.blockHash === null) return { analysis: await analyse(), reused: false };
      const id = cacheKey(key);
      const found = entries.get(id);
      if (found) {
        entries.delete(id);
        entries.set(id, found);
        return { analysis: await found.analysis, reused: true };
      }
      const entry: Entry = { analysis: analyse(), bytes: 0 };
      entries.set(id, entry);
      evict();
      entry.analysis.then(
        (analysis) => {
          if (analysis.reads.failedReadCount > 0) return forget(id, entry);
          if (entries.get(id) !== entry) return;
          entry.bytes = analysis.dissected.reduce((n, d) => n + d.dissection.bytecodeSizeBytes, 0);
          bytes += entry.bytes;
          evict();
        },
        () => forget(id, entry),
      );
      return { analysis: await entry.analysis, reused: false };
    },
    size: () => entries.size,
  };
}

function cacheKey({ block, address, selector }: ObservationKey): string {
  return [block.chainId, block.blockHash, block.providerName, address.toLowerCase(), selector?.toLowerCase() ?? ""].join(":");
}
