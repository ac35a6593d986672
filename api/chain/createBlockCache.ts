import type { Result } from "../errors";
import type { ObservationBlock } from "./ObservationBlock";

export type BlockCache<T> = {
  /**
   * The value observed at `block`: the kept one, or the one in flight, when there is one (`reused`);
   * else `observe()`'s, kept for later requests at the same block when it succeeds.
   */
  share(block: ObservationBlock, observe: () => Promise<Result<T>>): Promise<{ result: Result<T>; reused: boolean }>;
  /** Blocks kept now. */
  size(): number;
};

/**
 * One observation per pinned block, in process memory: keyed by the block's hash (and the provider and
 * trust it was pinned with), so a new block means new reads and an observation is never served for
 * another block; shared while in flight, so concurrent requests at one block read once. Refusals are not
 * kept. At most `maxEntries` blocks are kept, the least recently asked for leaving first.
 */
export function createBlockCache<T>({ maxEntries }: { maxEntries: number }): BlockCache<T> {
  const entries = new Map<string, Promise<Result<T>>>();
  return {
    async share(block, observe) {
      const key = [block.chainId, block.blockHash, block.providerName, block.trustLevel].join(":");
      const found = entries.get(key);
      if (found) {
        entries.delete(key);
        entries.set(key, found);
        return { result: await found, reused: true };
      }
      const pending = observe();
      entries.set(key, pending);
      for (const old of entries.keys()) {
        if (entries.size <= maxEntries) break;
        entries.delete(old);
      }
      const forget = () => {
        if (entries.get(key) === pending) entries.delete(key);
      };
      const result = await pending.catch((err: unknown) => {
        forget();
        throw err;
      });
      if (!result.ok) forget();
      return { result, reused: false };
    },
    size: () => entries.size,
  };
}
