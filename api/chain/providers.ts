import type { Config } from "../config";

/** One Base JSON-RPC endpoint we read from. `name` is safe to publish: it never carries the URL's secrets. */
export type RpcProvider = {
  name: string;
  url: string;
  /** A provider we operate or pay for: its answer alone is evidence grade. */
  trusted: boolean;
  /** How long one batch may take before this provider counts as not answering (RPC_TIMEOUT_MS); default 4 s. */
  timeoutMs?: number;
};

/**
 * The providers of the configured chain: on the devnet its own node (trusted: we run it), or the
 * DEVNET_PROVIDER_URLS in front of it as public ones; on mainnet the trusted primary (if any) followed
 * by the public ones.
 */
export function resolveProviders(chain: Config["chain"], devnetRpcUrl?: string): RpcProvider[] {
  const timeoutMs = chain.rpcTimeoutMs;
  if (chain.kind === "devnet") {
    if (chain.providerUrls.length > 0) return publicProviders(chain.providerUrls, timeoutMs);
    if (!devnetRpcUrl) throw new Error("the devnet RPC URL is needed in devnet mode");
    return [{ name: "devnet", url: devnetRpcUrl, trusted: true, timeoutMs }];
  }
  const primary: RpcProvider[] = chain.primaryUrl
    ? [{ name: `primary:${new URL(chain.primaryUrl).hostname}`, url: chain.primaryUrl, trusted: true, timeoutMs }]
    : [];
  return [...primary, ...publicProviders(chain.publicUrls, timeoutMs)];
}

function publicProviders(urls: string[], timeoutMs: number): RpcProvider[] {
  return urls.map((url, i) => ({ name: `public-${i + 1}:${new URL(url).hostname}`, url, trusted: false, timeoutMs }));
}
