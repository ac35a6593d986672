import type { Address } from "viem";
import { baseChainId, baseNetwork, baseUsdc, baseWeth } from "../base/baseChain";
import { readManifest } from "../devnet/manifest";
import { connectRedis } from "./access/connectRedis";
import { createAccessDeps } from "./access/createAccessDeps";
import { createRateLimits } from "./access/createRateLimits";
import { onePerProcess } from "./access/onePerProcess";
import { createApp } from "./app";
import { createObservationCache } from "./capability/createObservationCache";
import { demoSamples } from "./capability/demoSamples";
import { resolveProviders } from "./chain/providers";
import { type Config, loadConfig } from "./config";
import type { IndexDb } from "./index/indexDb";
import { resolveApiKeyPepper } from "./keys/resolveApiKeyPepper";
import { createEthQuote } from "./market/createEthQuote";
import { createAppStore } from "./store/createAppStore";
import { configuredFacilitator } from "./x402/configuredFacilitator";
import { evidenceGradeSettlement } from "./x402/confirmSettlement";
import { createX402Service } from "./x402/createX402Service";

/** Pools with less USDC than this (50,000 USDC, DefiLlama's floor) behind their price do not set ETH's price. */
const minEthQuoteDepthUsdc = 50_000n * 10n ** 6n;

/** Blocks the index may trail the chain before market answers refuse it as stale. */
const maxIndexLagBlocks = 30;

/** Builds the API as the server runs it: configuration from the environment, Ponder's read-only db. */
export function createServerApp(indexDb: IndexDb, config: Config = loadConfig()) {
  const manifest = config.chain.kind === "devnet" ? readManifest(config.chain.manifestPath) : undefined;
  const providers = resolveProviders(config.chain, manifest?.rpcUrl);
  const appStore = onePerProcess("appStore", () => createAppStore(config.appStore));
  const payoutAddress = (config.payoutAddress ?? manifest?.payoutAddress ?? null) as Address | null;
  const facilitator = configuredFacilitator({
    x402: config.x402,
    devnetFacilitatorKey: manifest?.accounts.facilitator.privateKey,
    providers,
    network: baseNetwork,
  });
  const x402 =
    facilitator && payoutAddress
      ? createX402Service({
          db: appStore.db,
          storeReady: appStore.ready,
          facilitator,
          payTo: payoutAddress,
          network: baseNetwork,
          confirmSettlement: evidenceGradeSettlement({ providers, chainId: baseChainId, token: baseUsdc }),
        })
      : null;
  return createApp({
    status: {
      indexDb,
      appStore,
      payoutAddress,
      providers,
      chainId: baseChainId,
      source: config.chain.kind === "devnet" ? "devnet" : "base-mainnet",
      maxIndexLagBlocks,
      x402Facilitator: x402?.facilitator ?? null,
    },
    capability: {
      providers,
      chainId: baseChainId,
      samples: demoSamples(config.demoAuditAddresses, manifest),
      observationCache: createObservationCache(),
    },
    access: createAccessDeps({
      store: appStore,
      origins: config.origins,
      pepper: resolveApiKeyPepper({
        configured: config.access.apiKeyPepper,
        chain: config.chain.kind,
        devFile: config.access.devPepperFile,
      }),
      environment: config.chain.kind === "devnet" ? "test" : "live",
      chainId: baseChainId,
      providers,
      indexDb,
      payTo: payoutAddress,
      ethQuote: createEthQuote({
        indexDb,
        chainId: baseChainId,
        weth: baseWeth,
        usdc: baseUsdc,
        minDepthUsdc: minEthQuoteDepthUsdc,
        maxAgeSeconds: 60,
      }),
      rateLimits: onePerProcess("rateLimits", () =>
        createRateLimits({ redis: config.redisUrl ? connectRedis(config.redisUrl) : undefined }),
      ),
      clientIpHeader: config.access.clientIpHeader,
      gatewayProxySecretSha256: config.access.gatewayProxySecretSha256,
      operatorBootstrapToken: config.access.operatorBootstrapToken,
      limits: config.access.limits,
    }),
    x402,
  });
}
