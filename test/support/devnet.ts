import { afterAll, beforeAll, inject } from "vitest";
import type { RpcProvider } from "../../api/chain/providers";
import { type Anvil, startAnvil } from "../../devnet/anvil";
import { type Manifest, readManifest } from "../../devnet/manifest";
import { devnetReadTimeoutMs } from "./startService";
import { testClient } from "./testClient";

export { testClient };

/** The manifest of the devnet that the global setup started for this run. */
export function testManifest(): Manifest {
  return readManifest(inject("manifestPath"));
}

/** The test devnet (or a node or proxy in front of it at `url`) as the one, trusted, provider. */
export const devnetProvider = (url: string, name = "devnet"): RpcProvider => ({ name, url, trusted: true, timeoutMs: devnetReadTimeoutMs });

/** The same as a public provider: untrusted, its answers count only where enough of them agree. */
export const publicDevnetProvider = (url: string, name: string): RpcProvider => ({ ...devnetProvider(url, name), trusted: false });

/**
 * A private fork of the seeded test devnet for the calling file, started before its tests and stopped after
 * them: what they mine and spend no other file sees. Mining a block every `blockSeconds` when given (else on
 * each transaction). `manifest()` is the test devnet's, at the fork's URL.
 */
export function privateFork({ blockSeconds }: { blockSeconds?: number } = {}): { manifest(): Manifest } {
  const shared = testManifest();
  let fork: Anvil | undefined;
  let manifest: Manifest | undefined;
  beforeAll(async () => {
    fork = await startAnvil({ fork: { rpcUrl: shared.rpcUrl, blockNumber: shared.seededAtBlock } });
    manifest = { ...shared, rpcUrl: fork.rpcUrl };
    if (blockSeconds !== undefined) await testClient(manifest).setIntervalMining({ interval: blockSeconds });
  }, 60_000);
  afterAll(() => fork?.stop());
  return {
    manifest() {
      if (!manifest) throw new Error("the private fork is started before the file's tests");
      return manifest;
    },
  };
}
