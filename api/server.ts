import { createApp } from "./app";
import { demoSamples } from "./capability/demoSamples";
import { resolveProviders } from "./chain/providers";
import { loadConfig } from "./config";
import type { IndexDb } from "./indexDb";
import { readManifest } from "../devnet/manifest";

/** Blocks the index may trail the chain before market answers refuse it as stale. */
const maxIndexLagBlocks = 30;

/** Builds the API as the server runs it: configuration from the environment, Ponder's read-only db. */
export function createServerApp(indexDb: IndexDb) {
  const config = loadConfig();
  const manifest = config.chain.kind === "devnet" ? readManifest(config.chain.manifestPath) : undefined;
  const providers = resolveProviders(config.chain, manifest?.rpcUrl);
  return createApp({
    status: {
      indexDb,
      providers,
      chainId: 8453,
      source: config.chain.kind === "devnet" ? "devnet" : "base-mainnet",
      maxIndexLagBlocks,
    },
    capability: { providers, chainId: 8453, samples: demoSamples(config.demoAuditAddresses, manifest) },
  });
}
