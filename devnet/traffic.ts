// PLACEHOLDER: replaced by the market-fixtures work.
import type { Manifest } from "./manifest";

export function startTraffic(_manifest: Manifest, _options: { intervalMs?: number } = {}): { stop(): Promise<void> } {
  return { stop: async () => {} };
}
