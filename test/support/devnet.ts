import { inject } from "vitest";
import { devnetAccount } from "../../devnet/accounts";
import { createDevnetClient } from "../../devnet/client";
import { type Manifest, readManifest } from "../../devnet/manifest";

/** The manifest of the devnet that the global setup started for this run. */
export function testManifest(): Manifest {
  return readManifest(inject("manifestPath"));
}

/** A client of the test devnet signing as the funded anvil account `index`. */
export function testClient(manifest: Manifest, index = 0) {
  return createDevnetClient(manifest.rpcUrl, devnetAccount(index).privateKey);
}
