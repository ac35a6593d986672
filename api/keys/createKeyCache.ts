import type { AppDb } from "../store/createAppStore";
import { findKeyBySecretHash, type KeyRecord, readKeyEpoch } from "../store/keyQueries";

/**
 * A change to a key (revocation, a new secret or expiry) committed at time T is seen by every lookup
 * that starts after T + 1 s, on every replica: the bound on a revoked key's life. Under load a replica
 * confirms the epoch every half second (one primary-key read), so the bound costs it two reads a
 * second, however many calls it serves.
 */
export const keyCacheMaxStalenessMs = 1000;

/** Keys kept per replica (about 0.5 KB each); the least recently used goes first. */
export const keyCacheMaxEntries = 10_000;

export type KeyCache = {
  /** The key whose secret hashes to `secretHash` (revoked or not): from memory while the epoch is confirmed fresh, else from the store. */
  find(secretHash: string): Promise<KeyRecord | undefined>;
  /** This replica just changed a key: every cached key is dropped at once (other replicas see the epoch move). */
  invalidate(): void;
};

export type CreateKeyCacheParameters = {
  db: AppDb;
  /** How stale a cached key may be (0: nothing is cached; every lookup reads the store). */
  maxStalenessMs?: number;
  maxEntries?: number;
  now?: () => number;
};

/**
 * Key lookups from process memory, kept exact within `maxStalenessMs` by the store's key epoch
 * (`app.key_epoch`, moved by a trigger on every change to `api_key`): a cached key is used only while
 * an epoch read that started at most `maxStalenessMs` ago found the epoch unchanged; one older than
 * half of it is refreshed in the background. A moved epoch drops every cached key, and a load that
 * raced such a drop is not kept, nor joined by a lookup after the drop. Unknown secrets are never cached:
 * the failed-authentication budget bounds the distinct ones a client tries, and concurrent lookups of
 * one secret join one read.
 */
export function createKeyCache({
  db,
  maxStalenessMs = keyCacheMaxStalenessMs,
  maxEntries = keyCacheMaxEntries,
  now = Date.now,
}: CreateKeyCacheParameters): KeyCache {
  const entries = new Map<string, KeyRecord>();
  let epoch: number | undefined;
  /** When the read that confirmed `epoch` started. */
  let confirmedAt = Number.NEGATIVE_INFINITY;
  /** Counts the drops, so a load that started before one is not kept. */
  let generation = 0;
  let inFlight: Promise<void> | undefined;
  /**
   * Store reads in flight by secret hash, with the generation and time they started in: a lookup of the
   * same secret joins one of its own generation that started at most `maxStalenessMs` ago instead of
   * reading again (a client's first burst with a new key, or repeats of one wrong key, read the store
   * once; a read that hangs is not joined for longer). At most one per secret being looked up.
   */
  const loading = new Map<string, { generation: number; startedAt: number; record: Promise<KeyRecord | undefined> }>();

  const drop = () => {
    entries.clear();
    generation += 1;
  };
  const poll = () => {
    inFlight ??= (async () => {
      const started = now();
      try {
        const current = await readKeyEpoch(db);
        if (current !== epoch) {
          drop();
          epoch = current;
        }
        confirmedAt = Math.max(confirmedAt, started);
      } finally {
        inFlight = undefined;
      }
    })();
    return inFlight;
  };
  const age = () => now() - confirmedAt;

  return {
    async find(secretHash) {
      if (maxStalenessMs <= 0) return findKeyBySecretHash(db, secretHash);
      if (age() > maxStalenessMs) await poll();
      // A poll joined in flight may have started too early: then this lookup reads the store itself.
      const trusted = age() <= maxStalenessMs;
      if (!trusted) return findKeyBySecretHash(db, secretHash);
      if (age() > maxStalenessMs / 2) poll().catch(() => {});
      const cached = entries.get(secretHash);
      if (cached) {
        entries.delete(secretHash);
        entries.set(secretHash, cached);
        return cached;
      }
      const joined = loading.get(secretHash);
      if (joined?.generation === generation && now() - joined.startedAt <= maxStalenessMs) return joined.record;
      const loadedIn = generation;
      const record = findKeyBySecretHash(db, secretHash).then((found) => {
        if (found && generation === loadedIn) {
          entries.set(secretHash, found);
          if (entries.size > maxEntries) entries.delete(entries.keys().next().value as string);
        }
        return found;
      });
      loading.set(secretHash, { generation: loadedIn, startedAt: now(), record });
      const clear = () => loading.get(secretHash)?.record === record && loading.delete(secretHash);
      record.then(clear, clear);
      return record;
    },
    invalidate: drop,
  };
}
