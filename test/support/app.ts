import type { AppParameters } from "../../api/app";
import { createDissectionCache } from "../../api/capability/createDissectionCache";
import { createObservationCache } from "../../api/capability/createObservationCache";
import { demoSamples } from "../../api/capability/demoSamples";
import { probeProvider } from "../../api/chain/probeProvider";
import type { RpcProvider } from "../../api/chain/providers";
import type { IndexDb } from "../../api/index/indexDb";
import { assembleObserveGasFees } from "../../api/market/assembleObserveGasFees";
import { createReadMarket, marketRules } from "../../api/market/readMarket";
import type { DiscoveryParameters } from "../../api/routes/discovery";
import { createUsageCounters } from "../../api/stats/createUsageCounters";
import type { AppStore } from "../../api/store/createAppStore";
import type { DexDeployments } from "../../base/poolCandidates";
import type { Manifest } from "../../devnet/manifest";
import { testAccessServices, testAppStore } from "./access";
import { devnetProvider } from "./devnet";
import { simulationParameters } from "./simulation";
import { testX402Service } from "./x402";

/**
 * The market routes over `indexDb` and `providers`, with the default rules; trade simulations find their
 * pools by `dexes` (the devnet manifest's). The test devnet mines on each transaction: head reads are
 * shared only while in flight.
 */
export function testMarketParameters(
  providers: RpcProvider[],
  indexDb: IndexDb,
  dexes: DexDeployments,
  maxIndexLagBlocks = 10,
): AppParameters["market"] {
  const readMarket = createReadMarket({
    indexDb,
    chainId: 8453,
    providers,
    readHead: probeProvider,
    maxIndexLagBlocks,
    rules: marketRules(50_000, 86_400),
  });
  return {
    gasFees: assembleObserveGasFees({ providers, chainId: 8453, blockTimeMs: 0 }),
    readMarket,
    whaleSignals: { readMarket, indexDb, chainId: 8453, windowBlocks: 43_200 },
    simulateTrade: simulationParameters({ chainId: 8453, dexes }, providers),
  };
}

/** The operator stats token of the test apps. */
export const testOperatorStatsToken = "operator-stats-token-0123456789abcdef";

/** Usage counters (written on flush only), stats and history over `appStore`, in the devnet's `test` bucket. */
export function testDiscoveryParameters(
  appStore: AppStore = testAppStore(),
  overrides: Partial<DiscoveryParameters> = {},
): DiscoveryParameters {
  return {
    appStore,
    counters: createUsageCounters({ db: appStore.db, bucket: "test", flushIntervalMs: 0 }),
    bucket: "test",
    operatorStatsToken: testOperatorStatsToken,
    healthSampleIntervalSeconds: 60,
    ...overrides,
  };
}

/** Real dependencies for createApp against the test devnet; a test overrides the parts it is about. */
export function testAppParameters(manifest: Manifest, indexDb: IndexDb, overrides: Partial<AppParameters> = {}): AppParameters {
  const providers: RpcProvider[] = [devnetProvider(manifest.rpcUrl)];
  const x402 = overrides.x402 === undefined ? testX402Service(manifest) : overrides.x402;
  return {
    status: {
      indexDb,
      appStore: testAppStore(),
      payoutAddress: manifest.payoutAddress,
      providers,
      chainId: 8453,
      source: "devnet",
      maxIndexLagBlocks: 5,
      x402Facilitator: x402?.facilitator ?? null,
    },
    capability: {
      providers,
      chainId: 8453,
      samples: demoSamples(undefined, manifest),
      observationCache: createObservationCache(),
      dissectionCache: createDissectionCache(),
    },
    ...testAccessServices(manifest, indexDb),
    market: testMarketParameters(providers, indexDb, manifest.dexes),
    discovery: testDiscoveryParameters(),
    ...overrides,
    x402,
  };
}
