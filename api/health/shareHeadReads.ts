import type { ProviderHead, ReadHead } from "../chain/probeProvider";

export type ShareHeadReadsParameters = {
  /** How long a settled read's answer is reused. */
  ttlMs?: number;
  now?: () => Date;
};

/**
 * `readHead` shared per provider and block tag: callers while a read is in flight share its promise,
 * and its answer is reused for `ttlMs` (a second) after it settles, so any number of status calls make
 * at most one request per provider a second (the trusted primary is a paid one).
 */
export function shareHeadReads(readHead: ReadHead, { ttlMs = 1000, now = () => new Date() }: ShareHeadReadsParameters = {}): ReadHead {
  const entries = new Map<string, { answer: Promise<ProviderHead>; settledAt: number | null }>();
  return (provider, tag = "latest") => {
    const key = `${provider.url} ${tag}`;
    const cached = entries.get(key);
    if (cached && (cached.settledAt === null || now().getTime() - cached.settledAt < ttlMs)) return cached.answer;
    // Past blocks are asked once each: settled answers older than ttlMs leave, so the map stays small.
    for (const [old, e] of entries) if (e.settledAt !== null && now().getTime() - e.settledAt >= ttlMs) entries.delete(old);
    const entry = { answer: readHead(provider, tag), settledAt: null as number | null };
    entries.set(key, entry);
    const settle = () => {
      entry.settledAt = now().getTime();
    };
    entry.answer.then(settle, settle);
    return entry.answer;
  };
}
