import { inject } from "vitest";
import type { RpcProvider } from "../../api/chain/providers";
import { devnetAccount } from "../../devnet/accounts";
import { createDevnetClient } from "../../devnet/client";
import { type Manifest, readManifest } from "../../devnet/manifest";
import { devnetReadTimeoutMs } from "./startService";

/** The manifest of the devnet that the global setup started for this run. */
export function testManifest(): Manifest {
  return readManifest(inject("manifestPath"));
}

/** A client of the test devnet signing as the funded anvil account `index`. */
export function testClient(manifest: Manifest, index = 0) {
  return createDevnetClient(manifest.rpcUrl, devnetAccount(index).privateKey);
}

/** The test devnet (or a node or proxy in front of it at `url`) as the one, trusted, provider. */
export const devnetProvider = (url: string, name = "devnet"): RpcProvider => ({ name, url, trusted: true, timeoutMs: devnetReadTimeoutMs });

/** The same as a public provider: untrusted, its answers count only where enough of them agree. */
export const publicDevnetProvider = (url: string, name: string): RpcProvider => ({ ...devnetProvider(url, name), trusted: false });
