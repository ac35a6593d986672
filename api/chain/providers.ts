import type { Config } from "../config";

/** One Base JSON-RPC endpoint we read from. `name` is safe to publish: it never carries the URL's secrets. */
export type RpcProvider = {
  name: string;
  url: string;
  /** A provider we operate or pay for: its answer alone is evidence grade. */
  trusted: boolean;
};

/**
 * The providers of the configured chain: on the devnet its own node (trusted: we run it), or the
 * DEVNET_PROVIDER_URLS in front of it as public ones; on mainnet the trusted primary (if any) followed
 * by the public ones.
 */
export function resolveProviders(chain: Config["chain"], devnetRpcUrl?: string): RpcProvider[] {
  if (chain.kind === "devnet") {
    if (chain.providerUrls.length > 0) return publicProviders(chain.providerUrls);
    if (!devnetRpcUrl) throw new Error("the devnet RPC URL is needed in devnet mode");
    return [{ name: "devnet", url: devnetRpcUrl, trusted: true }];
  }
  const primary: RpcProvider[] = chain.primaryUrl
    ? [{ name: `primary:${new URL(chain.primaryUrl).hostname}`, url: chain.primaryUrl, trusted: true }]
    : [];
  return [...primary, ...publicProviders(chain.publicUrls)];
}

function publicProviders(urls: string[]): RpcProvider[] {
  return urls.map((url, i) => ({ name: `public-${i + 1}:${new URL(url).hostname}`, url, trusted: false }));
}
