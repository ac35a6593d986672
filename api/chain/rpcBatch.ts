import { defaultRpcTimeoutMs } from "../env/EnvSchema";
import type { RpcProvider } from "./providers";

export type RpcRequest = { method: string; params: unknown[] };

/** One answer of a batch: a result, or why there is none. */
export type RpcOutcome = { ok: true; result: unknown } | { ok: false; error: string; code?: number };

/**
 * Sends `requests` to `provider` as one JSON-RPC batch (one HTTP round trip) and returns the answers
 * in request order. Transport failures and malformed answers become failed outcomes, never throws.
 */
export async function rpcBatch(
  provider: RpcProvider,
  requests: readonly RpcRequest[],
  timeoutMs = provider.timeoutMs ?? defaultRpcTimeoutMs,
): Promise<RpcOutcome[]> {
  if (requests.length === 0) return [];
  const body = requests.map((r, id) => ({ jsonrpc: "2.0", id, method: r.method, params: r.params }));
  let answers: unknown;
  try {
    const res = await fetch(provider.url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!res.ok) return requests.map(() => ({ ok: false, error: `HTTP ${res.status}` }));
    answers = await res.json();
  } catch (err) {
    const error = err instanceof Error && err.name === "TimeoutError" ? "timeout" : "unreachable";
    return requests.map(() => ({ ok: false, error }));
  }
  if (!Array.isArray(answers)) return requests.map(() => ({ ok: false, error: "malformed batch answer" }));
  const byId = new Map<number, { result?: unknown; error?: { code?: number; message?: string } }>();
  for (const a of answers) {
    if (a && typeof a === "object" && typeof (a as { id?: unknown }).id === "number") byId.set((a as { id: number }).id, a);
  }
  return requests.map((_, id): RpcOutcome => {
    const a = byId.get(id);
    if (!a) return { ok: false, error: "missing from batch answer" };
    if (a.error) return { ok: false, error: a.error.message ?? "error", code: a.error.code };
    if (!("result" in a)) return { ok: false, error: "no result" };
    return { ok: true, result: a.result };
  });
}
