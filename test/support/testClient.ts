import { devnetAccount } from "../../devnet/accounts";
import { createDevnetClient } from "../../devnet/client";
import type { Manifest } from "../../devnet/manifest";

/**
 * A client of the test devnet signing as the funded anvil account `index`. Apart from ./devnet.ts (which
 * needs vitest's state), so scripts that run outside vitest, the benches, can use it and ./usdc.ts.
 */
export function testClient(manifest: Manifest, index = 0) {
  return createDevnetClient(manifest.rpcUrl, devnetAccount(index).privateKey);
}
