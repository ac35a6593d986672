import type { AppDeps } from "../../api/app";
import { createObservationCache } from "../../api/capability/createObservationCache";
import { demoSamples } from "../../api/capability/demoSamples";
import type { RpcProvider } from "../../api/chain/providers";
import type { IndexDb } from "../../api/index/indexDb";
import { createGasFeesDeps } from "../../api/market/createGasFeesDeps";
import type { Manifest } from "../../devnet/manifest";
import { testAccessDeps, testAppStore } from "./access";

/** Real dependencies for createApp against the test devnet; a test overrides the parts it is about. */
export function testAppDeps(manifest: Manifest, indexDb: IndexDb, overrides: Partial<AppDeps> = {}): AppDeps {
  const providers: RpcProvider[] = [{ name: "devnet", url: manifest.rpcUrl, trusted: true }];
  return {
    status: {
      indexDb,
      appStore: testAppStore(),
      payoutAddress: manifest.payoutAddress,
      providers,
      chainId: 8453,
      source: "devnet",
      maxIndexLagBlocks: 5,
    },
    capability: { providers, chainId: 8453, samples: demoSamples(undefined, manifest), observationCache: createObservationCache() },
    // The test devnet mines on each transaction: head reads are shared only while in flight.
    market: { gasFees: createGasFeesDeps({ providers, chainId: 8453, blockTimeMs: 0 }) },
    access: testAccessDeps(manifest, indexDb),
    ...overrides,
  };
}
