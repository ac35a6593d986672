import { fallback, http, type Transport } from "viem";
import type { Config } from "../../api/config";
import { readManifest } from "../../devnet/manifest";

/**
 * The RPC URLs the indexer reads. On the devnet the one node is listed several times with distinct
 * query strings: Ponder rate-limits each URL separately, and this cut a backfill against anvil from
 * 68 s to about 10 s.
 */
export function indexerRpcUrls(chain: Config["chain"]): string[] {
  if (chain.kind === "mainnet") {
    return [...(chain.primaryUrl ? [chain.primaryUrl] : []), ...chain.publicUrls];
  }
  const { rpcUrl } = readManifest(chain.manifestPath);
  return Array.from({ length: 4 }, (_, i) => `${rpcUrl}/?b=${i}`);
}

/**
 * What Ponder reads through: with a trusted primary, the primary alone and the public providers only
 * when it fails (a fallback transport), so public providers do not feed the index while the primary
 * answers; otherwise Ponder spreads its requests over every URL.
 */
export function indexerRpc(chain: Config["chain"]): string[] | Transport {
  const urls = indexerRpcUrls(chain);
  return chain.kind === "mainnet" && chain.primaryUrl ? fallback(urls.map((url) => http(url))) : urls;
}
