/**
 * `read` shared by its callers: those that ask while a read is in flight share its promise, and its
 * answer is reused for `ttlMs` after it settles, so a flood of callers (an unauthenticated status page)
 * costs at most one read per `ttlMs`.
 */
export function reuseAnswer<T>(read: () => Promise<T>, ttlMs: number, now: () => number = Date.now): () => Promise<T> {
  let latest: { answer: Promise<T>; settledAt: number | null } | undefined;
  return () => {
    if (latest && (latest.settledAt === null || now() - latest.settledAt < ttlMs)) return latest.answer;
    const entry = { answer: read(), settledAt: null as number | null };
    const settle = () => {
      entry.settledAt = now();
    };
    entry.answer.then(settle, settle);
    latest = entry;
    return entry.answer;
  };
}
