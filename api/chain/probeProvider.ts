import type { ProviderProbe } from "../health/StatusReport";
import type { RpcProvider } from "./providers";

/** Asks one provider for its head block within `timeoutMs`; a failure is a value, not a throw. */
export async function probeProvider(provider: RpcProvider, timeoutMs = 2000): Promise<ProviderProbe> {
  const started = performance.now();
  const base = { name: provider.name, trusted: provider.trusted };
  try {
    const res = await fetch(provider.url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_blockNumber", params: [] }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const body = (await res.json()) as { result?: string };
    const latencyMs = Math.round(performance.now() - started);
    if (!res.ok || typeof body.result !== "string") {
      return { ...base, available: false, blockNumber: null, latencyMs, error: `HTTP ${res.status}` };
    }
    return { ...base, available: true, blockNumber: Number.parseInt(body.result, 16), latencyMs };
  } catch (err) {
    const latencyMs = Math.round(performance.now() - started);
    const error = err instanceof Error && err.name === "TimeoutError" ? "timeout" : "unreachable";
    return { ...base, available: false, blockNumber: null, latencyMs, error };
  }
}
