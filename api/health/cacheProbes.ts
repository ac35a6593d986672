import type { RpcProvider } from "../chain/providers";
import type { ProviderProbe } from "./StatusReport";

/** A provider's probe: its head block, or why it is unavailable. */
export type Probe = (provider: RpcProvider) => Promise<ProviderProbe>;

export type CacheProbesParameters = {
  /** How long a settled probe's answer is reused. */
  ttlMs?: number;
  now?: () => Date;
};

/**
 * `probe` shared per provider: callers while a probe is in flight share its promise, and its answer
 * is reused for `ttlMs` (a second) after it settles, so any number of status calls make at most one
 * request per provider a second (the trusted primary is a paid one).
 */
export function cacheProbes(probe: Probe, { ttlMs = 1000, now = () => new Date() }: CacheProbesParameters = {}): Probe {
  const entries = new Map<string, { answer: Promise<ProviderProbe>; settledAt: number | null }>();
  return (provider) => {
    const cached = entries.get(provider.url);
    if (cached && (cached.settledAt === null || now().getTime() - cached.settledAt < ttlMs)) return cached.answer;
    const entry = { answer: probe(provider), settledAt: null as number | null };
    entries.set(provider.url, entry);
    const settle = () => {
      entry.settledAt = now().getTime();
    };
    entry.answer.then(settle, settle);
    return entry.answer;
  };
}
