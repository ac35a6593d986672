import { bytecodeBytes } from "./bytecodeBytes";
import { bytecodeHash } from "./bytecodeHash";
import type { Dissection } from "./Dissection";
import { dissectBytecode } from "./dissectBytecode";

export type DissectionCache = {
  /** The dissection of `code`: a kept one for the same bytes (by hash), else `dissectBytecode`, kept. */
  dissect(code: Uint8Array | string): Dissection;
  /** Dissections actually made (misses), since the cache was made. */
  dissections(): number;
};

/**
 * 1,024 codes: a dissection is a few KiB (selectors and evidence, not the code), so the cache holds at
 * most a few MiB while it covers every sample, its proxies and a 256-facet Diamond several times over.
 */
export const defaultDissectionCacheEntries = 1024;

/**
 * Dissections kept across blocks in an LRU keyed by the code's SHA-256: a dissection depends on the bytes
 * alone, so a new block (an observation cache miss) re-reads the code but dissects only code it has not
 * seen. Hashing costs a fraction of a dissection.
 */
export function createDissectionCache({ maxEntries = defaultDissectionCacheEntries }: { maxEntries?: number } = {}): DissectionCache {
  const entries = new Map<string, Dissection>();
  let made = 0;
  return {
    dissect(code) {
      const bytes = bytecodeBytes(code);
      const key = bytecodeHash(bytes);
      const found = entries.get(key);
      if (found) {
        entries.delete(key);
        entries.set(key, found);
        return found;
      }
      const dissection = dissectBytecode(bytes);
      made += 1;
      entries.set(key, dissection);
      for (const oldest of entries.keys()) {
        if (entries.size <= maxEntries) break;
        entries.delete(oldest);
      }
      return dissection;
    },
    dissections: () => made,
  };
}
