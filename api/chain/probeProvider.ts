import { defaultRpcTimeoutMs } from "../env/EnvSchema";
import type { RpcProvider } from "./providers";
import { rpcBatch } from "./rpcBatch";

/** One provider's latest block, or why it did not answer. */
export type ProviderHead =
  | { provider: RpcProvider; available: true; number: number; hash: `0x${string}`; latencyMs: number }
  | { provider: RpcProvider; available: false; error: string; latencyMs: number };

/** Reads a provider's head, or its block `tag`, as a value: a failure never throws. */
export type ReadHead = (provider: RpcProvider, tag?: string) => Promise<ProviderHead>;

/**
 * Asks one provider for a block (its latest by default): number and hash, with the latency. A head is one
 * small read that gates the rest, so it waits half the provider's batch timeout by default (2 s).
 */
export async function probeProvider(
  provider: RpcProvider,
  tag = "latest",
  timeoutMs = (provider.timeoutMs ?? defaultRpcTimeoutMs) / 2,
): Promise<ProviderHead> {
  const started = performance.now();
  const [outcome] = await rpcBatch(provider, [{ method: "eth_getBlockByNumber", params: [tag, false] }], timeoutMs);
  const latencyMs = Math.round(performance.now() - started);
  // A provider's own error text is not repeated (it reaches the public status page): a fixed vocabulary.
  if (!outcome?.ok) return { provider, available: false, error: transportError(outcome?.error), latencyMs };
  const block = outcome.result as { number?: string; hash?: string } | null;
  if (!block?.number || !block.hash || !/^0x[0-9a-f]{64}$/i.test(block.hash)) {
    return { provider, available: false, error: "malformed block", latencyMs };
  }
  return {
    provider,
    available: true,
    number: Number.parseInt(block.number, 16),
    hash: block.hash.toLowerCase() as `0x${string}`,
    latencyMs,
  };
}

/** A provider's failure in a fixed vocabulary (`HTTP 503`, `timeout`, `unreachable`, else `rpc error`): its own text is never repeated. */
export function transportError(error: string | undefined): string {
  return error && /^(HTTP \d{3}|timeout|unreachable)$/.test(error) ? error : "rpc error";
}
