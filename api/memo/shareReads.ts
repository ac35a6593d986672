export type ShareReadsParameters = {
  /** How long a settled read's answer is reused. */
  ttlMs?: number;
  now?: () => Date;
};

/**
 * `read` shared per key: callers while a read is in flight share its promise, and its answer (or
 * failure) is reused for `ttlMs` (a second) after it settles, so any number of callers make at most one
 * read per key per `ttlMs`.
 */
export function shareReads<K extends unknown[], T>(
  read: (...args: K) => Promise<T>,
  keyOf: (...args: K) => string,
  { ttlMs = 1000, now = () => new Date() }: ShareReadsParameters = {},
): (...args: K) => Promise<T> {
  const entries = new Map<string, { answer: Promise<T>; settledAt: number | null }>();
  const fresh = (e: { settledAt: number | null }) => e.settledAt === null || now().getTime() - e.settledAt < ttlMs;
  return (...args) => {
    const key = keyOf(...args);
    const cached = entries.get(key);
    if (cached && fresh(cached)) return cached.answer;
    // Settled answers older than ttlMs leave, so keys asked once each (past blocks) keep the map small.
    for (const [old, e] of entries) if (!fresh(e)) entries.delete(old);
    const entry = { answer: read(...args), settledAt: null as number | null };
    entries.set(key, entry);
    const settle = () => {
      entry.settledAt = now().getTime();
    };
    entry.answer.then(settle, settle);
    return entry.answer;
  };
}
