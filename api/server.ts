import { PGlite } from "@electric-sql/pglite";
import type { Address } from "viem";
import { baseBlockTimeSeconds, baseChainId, baseNetwork, baseUsdc } from "../base/baseChain";
import { baseDexDeployments } from "../base/baseDexDeployments";
import { devnetAccount, devnetRoles } from "../devnet/accounts";
import { readManifest } from "../devnet/manifest";
import { connectRedis } from "./access/connectRedis";
import { createAccessServices } from "./access/createAccessServices";
import { createRateLimits, defaultRatePerMinute } from "./access/createRateLimits";
import { createWorkBudget } from "./access/createWorkBudget";
import { createApp } from "./app";
import { createDissectionCache } from "./capability/createDissectionCache";
import { createObservationCache } from "./capability/createObservationCache";
import { demoSamples } from "./capability/demoSamples";
import { probeProvider } from "./chain/probeProvider";
import { resolveProviders } from "./chain/providers";
import { type Config, loadConfig } from "./config";
import { type CheckStatusParameters, checkStatus } from "./health/checkStatus";
import { createHealthSampler } from "./health/createHealthSampler";
import { shareHeadReads } from "./health/shareHeadReads";
import type { IndexDb } from "./index/indexDb";
import { resolveApiKeyPepper } from "./keys/resolveApiKeyPepper";
import { catalogueRates } from "./keys/toIssuedKey";
import { assembleObserveGasFees } from "./market/assembleObserveGasFees";
import { assembleSimulateTrade } from "./market/assembleSimulateTrade";
import { createEthQuote } from "./market/createEthQuote";
import { createReadMarket, marketRules } from "./market/readMarket";
import { onePerProcess } from "./memo/onePerProcess";
import { createUsageCounters } from "./stats/createUsageCounters";
import { counterBucketOf } from "./store/countDaily";
import { createAppStore } from "./store/createAppStore";
import { authorizationSignatureCheck } from "./x402/authorizationSignature";
import { configuredFacilitator } from "./x402/configuredFacilitator";
import { evidenceGradeSettlement } from "./x402/confirmSettlement";
import { createX402ClaimJob } from "./x402/createX402ClaimJob";
import { createX402Service } from "./x402/createX402Service";
import { createX402Signer } from "./x402/createX402Signer";
import { escrowCodeCheck } from "./x402/escrowCodeCheck";
import { escrowStateOnChain } from "./x402/readEscrowState";
import { payerFundsOnChain } from "./x402/readPayerFunds";
import { chainResolution } from "./x402/resolvePendingSettlement";

/**
 * Builds the API as the server runs it: configuration from the environment, Ponder's read-only db.
 * With it, its credit service, whose leases a clean shutdown gives back.
 */
export function createServerApp(indexDb: IndexDb, config: Config = loadConfig()) {
  const manifest = config.chain.kind === "devnet" ? readManifest(config.chain.manifestPath) : undefined;
  const providers = resolveProviders(config.chain, manifest?.rpcUrl);
  const appStore = onePerProcess("appStore", () =>
    createAppStore(config.appStore.kind === "index-pglite" ? { kind: "pglite-instance", client: pgliteOf(indexDb) } : config.appStore),
  );
  const payoutAddress = (config.payoutAddress ?? manifest?.payoutAddress ?? null) as Address | null;
  const { maxIndexLagBlocks } = config.market;
  const blockTimeMs = (config.chain.kind === "devnet" ? config.devnet.blockTime : baseBlockTimeSeconds) * 1000;
  const readMarket = createReadMarket({
    indexDb,
    chainId: baseChainId,
    providers,
    // Shared for half a block, as the gas route's; with the pin shared for a tenth (indexHeadTtlMs), the
    // pinned head is at most six tenths of a block old, plus the read's own time.
    readHead: shareHeadReads(probeProvider, { ttlMs: blockTimeMs / 2 }),
    maxIndexLagBlocks,
    // A tenth of a block: the index head an answer reflects is at most that much older than a fresh read.
    indexHeadTtlMs: blockTimeMs / 10,
    rules: marketRules(config.market.minPoolDepthUsd, config.indexer.volumeWindowSeconds),
  });
  const facilitator = configuredFacilitator({
    x402: config.x402,
    devnetFacilitatorKey: manifest?.accounts.facilitator.privateKey,
    providers,
    network: baseNetwork,
  });
  const confirmSettlement = evidenceGradeSettlement({ providers, chainId: baseChainId, token: baseUsdc });
  // On the devnet the payout account signs offers and receipts unless X402_SIGNING_KEY names another key.
  const signingKey = config.x402.signingKey ?? (manifest ? devnetAccount(devnetRoles.payout).privateKey : undefined);
  // On Base the escrow is trusted only by a hash the operator names (X402_BATCH_ESCROW_CODE_HASH).
  const batchEscrowCodeHash = config.x402.batchEscrowCodeHash ?? manifest?.codeHashes.x402BatchSettlement ?? null;
  const x402 =
    facilitator && payoutAddress
      ? createX402Service({
          db: appStore.db,
          storeReady: appStore.ready,
          facilitator,
          payTo: payoutAddress,
          network: baseNetwork,
          confirmSettlement,
          resolvePending: chainResolution({ providers, chainId: baseChainId, token: baseUsdc, confirmSettlement }),
          readPayerFunds: payerFundsOnChain({
            providers,
            chainId: baseChainId,
            token: baseUsdc,
            maxAuthorizationReads: config.x402.payerAuthorizationReads,
          }),
          checkSignature: authorizationSignatureCheck(providers),
          signer: signingKey ? createX402Signer(signingKey) : null,
          retentionSeconds: config.x402.paymentIdRetentionSeconds,
          batchSettlement: {
            escrow: escrowCodeCheck({
              providers,
              chainId: baseChainId,
              expectedCodeHash: batchEscrowCodeHash,
            }),
          },
        })
      : null;
  const batchScheme = x402?.batchScheme;
  // Without an expected escrow hash the scheme is never offered: no channel to claim, no escrow to read.
  if (x402 && batchScheme && payoutAddress && batchEscrowCodeHash) {
    onePerProcess("x402Claims", () => {
      const { claims } = config.x402;
      const job = createX402ClaimJob({
        db: appStore.db,
        manager: batchScheme.createChannelManager(x402.facilitator, baseNetwork, baseUsdc),
        channels: batchScheme.getStorage(),
        escrow: escrowStateOnChain({ providers, chainId: baseChainId }),
        receiver: payoutAddress,
        token: baseUsdc,
        policy: claims,
        retentionSeconds: config.x402.paymentIdRetentionSeconds,
      });
      // A store that never opens is reported by /v1/status (and the job never starts), not by a crash.
      appStore.ready.then(
        () => job.start({ claimIntervalSeconds: claims.intervalSeconds, sweepIntervalSeconds: claims.sweepIntervalSeconds }),
        () => {},
      );
      for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => void job.stop().catch(() => {}));
      return job;
    });
  }
  const status: CheckStatusParameters = {
    indexDb,
    appStore,
    payoutAddress,
    providers,
    chainId: baseChainId,
    source: config.chain.kind === "devnet" ? "devnet" : "base-mainnet",
    maxIndexLagBlocks,
    x402Facilitator: x402?.facilitator ?? null,
  };
  const environment = config.chain.kind === "devnet" ? "test" : "live";
  const { healthSampleIntervalSeconds } = config.discovery;
  const counters = onePerProcess("usageCounters", () => {
    const created = createUsageCounters({ db: appStore.db, bucket: counterBucketOf(environment) });
    // A stopping process writes the counts it still holds (best effort, beside Ponder's own shutdown).
    for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => void created.stop().catch(() => {}));
    return created;
  });
  onePerProcess("healthSampler", () => {
    const sampler = createHealthSampler({
      db: appStore.db,
      check: () => checkStatus({ ...status, readHead: probeProvider }),
      gatewayConfigured: config.access.gatewayProxySecretSha256 !== undefined,
      intervalSeconds: healthSampleIntervalSeconds,
    });
    sampler.start();
    return sampler;
  });
  const rates = { ...catalogueRates, ...config.access.tierRateLimits };
  const { access, keyRoutes } = createAccessServices({
    store: appStore,
    origins: config.origins,
    pepper: resolveApiKeyPepper({
      configured: config.access.apiKeyPepper,
      chain: config.chain.kind,
      devFile: config.access.devPepperFile,
    }),
    environment,
    chainId: baseChainId,
    providers,
    indexDb,
    payTo: payoutAddress,
    ethQuote: createEthQuote(readMarket),
    rateLimits: onePerProcess("rateLimits", () =>
      createRateLimits({
        redis: config.redisUrl ? connectRedis(config.redisUrl) : undefined,
        perMinute: { ...defaultRatePerMinute, ...rates, PUBLIC: config.access.publicRequestsPerMinute, MCP: config.mcp.requestsPerMinute },
      }),
    ),
    rates,
    clientIpHeader: config.access.clientIpHeader,
    trustedProxies: config.access.trustedProxies,
    gatewayProxySecretSha256: config.access.gatewayProxySecretSha256,
    operatorBootstrapToken: config.access.operatorBootstrapToken,
    limits: config.access.limits,
    maxLeaseCredits: config.access.creditLeaseMax,
  });
  const app = createApp({
    status,
    capability: {
      providers,
      chainId: baseChainId,
      samples: demoSamples(config.demoAuditAddresses, manifest),
      observationCache: createObservationCache(),
      dissectionCache: createDissectionCache(),
      workBudget: createWorkBudget({ readsPerMinute: config.demoReadsPerMinute }),
    },
    market: {
      gasFees: assembleObserveGasFees({ providers, chainId: baseChainId, blockTimeMs }),
      readMarket,
      whaleSignals: { readMarket, indexDb, chainId: baseChainId, windowBlocks: config.market.whaleWindowBlocks },
      // The devnet's DEXes are our own deployments: its manifest names their factories and init code.
      simulateTrade: assembleSimulateTrade({
        providers,
        chainId: baseChainId,
        dexes: manifest?.dexes ?? baseDexDeployments,
        market: config.market,
      }),
    },
    access,
    keyRoutes,
    x402,
    mcp: config.mcp,
    discovery: {
      appStore,
      counters,
      bucket: counterBucketOf(environment),
      operatorStatsToken: config.discovery.operatorStatsToken,
      healthSampleIntervalSeconds,
    },
  });
  return { app, credits: access.credits };
}

/** The PGlite instance under the index's drizzle client (Ponder's, on an embedded devnet): drizzle's `$client`. */
function pgliteOf(indexDb: IndexDb): PGlite {
  const client = (indexDb as { $client?: unknown }).$client;
  if (!(client instanceof PGlite)) throw new Error("the app store shares the index's PGlite, but the index is not on PGlite");
  return client;
}
