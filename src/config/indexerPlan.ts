import { type Address, parseUnits } from "viem";
import { type Config, ConfigError } from "../../api/config";
import { baseChainId, baseTokens, baseUsdc, baseWeth } from "../../base/baseChain";
import { baseDexDeployments } from "../../base/baseDexDeployments";
import type { DexDeployments } from "../../base/poolCandidates";
import { baseUniswapV4PoolManager } from "../../base/uniswapV4";
import { readManifest } from "../../devnet/manifest";
import { defaultWhaleThresholds } from "./baseMainnet";
import type { CuratedPool, TokenSpec } from "./indexerEnv";
import { addressesOf, derivedPools, logSourceKinds, type PlannedPool, type PlannedPools } from "./plannedPools";

export type TrackedTokenPlan = TokenSpec & {
  /** Transfers of at least this many base units are stored as whale candidates. */
  whaleThreshold: bigint;
};

/** What the indexer indexes, resolved from the configuration (and, on the devnet, its manifest). */
export type IndexerPlan = {
  chainId: number;
  usdc: Address;
  /** What native ETH (currency address(0) of V4 pools) counts as. */
  weth: Address;
  payoutAddress: Address;
  tokens: TrackedTokenPlan[];
  /** Uniswap V4's PoolManager (Base's address; the devnet installs its fixture there). */
  poolManager: Address;
  /**
   * The pools, each verified at start, and where each family's come from. `derived` (the default, on Base and
   * the devnet alike): every candidate pool of the tracked tokens derived from the chain's DEX deployments; one
   * absent at start is watched and registered at its first event. `list`: INDEXER_POOLS (pools with a
   * contract) or INDEXER_V4_POOLS (Uniswap V4); one absent at start is refused. Each family falls back to the
   * derivation on its own: setting one list leaves the other family derived.
   */
  pools: PlannedPools & { discovery: { contracts: "derived" | "list"; v4: "derived" | "list" } };
  /** Initialized ticks read per concentrated pool at start, at most: a pool with more is refused. */
  maxTicksPerPool: number;
  /** Devnet: the seeded block unless pinned. Mainnet: the pinned INDEXER_START_BLOCK, or undefined for head minus the window. */
  startBlocks: { pools: number | undefined; transfers: number | undefined; payments: number | undefined };
  volumeWindowSeconds: number;
  whaleWindowSeconds: number;
  pruneIntervalBlocks: number;
};

/** Resolves the indexer's plan; a token without a threshold, a repeated address or a bound exceeded stops the process. */
export function indexerPlan(config: Config): IndexerPlan {
  const settings = config.indexer;
  const common = {
    chainId: baseChainId,
    poolManager: baseUniswapV4PoolManager,
    maxTicksPerPool: settings.maxTicksPerPool,
    volumeWindowSeconds: settings.volumeWindowSeconds,
    whaleWindowSeconds: settings.whaleWindowSeconds,
    pruneIntervalBlocks: settings.pruneIntervalBlocks,
  };
  if (config.chain.kind === "devnet") {
    const manifest = readManifest(config.chain.manifestPath);
    const usdc = manifest.tokens.USDC;
    const weth = manifest.tokens.WETH;
    if (!usdc || !weth) throw new ConfigError("the devnet manifest has no USDC or no WETH");
    const tokens = trackedTokens(Object.values(manifest.tokens), settings);
    return {
      ...common,
      usdc: usdc.address,
      weth: weth.address,
      payoutAddress: (config.payoutAddress as Address | undefined) ?? manifest.payoutAddress,
      tokens,
      pools: plannedPools(settings, manifest.dexes, tokens),
      startBlocks: {
        // The seeded state is read at start, as Base's state is at its start block.
        pools: settings.startBlock ?? manifest.seededAtBlock,
        // Seeding mints huge amounts before seededAtBlock: whale candidates start after it.
        transfers: manifest.seededAtBlock + 1,
        payments: settings.paymentsStartBlock ?? 0,
      },
    };
  }
  if (!config.payoutAddress) throw new ConfigError("PAYOUT_ADDRESS is required on Base mainnet: payments are indexed to it");
  const tokens = trackedTokens(Object.values(baseTokens), settings);
  return {
    ...common,
    usdc: baseUsdc,
    weth: baseWeth,
    payoutAddress: config.payoutAddress as Address,
    tokens,
    pools: plannedPools(settings, baseDexDeployments, tokens),
    startBlocks: {
      pools: settings.startBlock,
      transfers: settings.startBlock,
      payments: settings.paymentsStartBlock ?? settings.startBlock,
    },
  };
}

/** Per family, the curated list when it is set (INDEXER_POOLS, INDEXER_V4_POOLS), else the derived candidates; within the bounds. */
function plannedPools(settings: Config["indexer"], dexes: DexDeployments, tokens: readonly TokenSpec[]): IndexerPlan["pools"] {
  const derived = derivedPools(dexes, tokens);
  const { curatedPools, curatedV4Pools } = settings;
  const pools: IndexerPlan["pools"] = {
    discovery: { contracts: curatedPools ? "list" : "derived", v4: curatedV4Pools ? "list" : "derived" },
    contracts: curatedPools ? curatedPools.map((p) => curatedPool(p, dexes)) : derived.contracts,
    v4: curatedV4Pools ?? derived.v4,
  };
  // One row per pool in pool_candidate: an address or id listed twice (in any case, under any kind) would
  // stop the indexer at setup on its key, so it stops here, named.
  const listed = [...pools.contracts.map((p) => p.address), ...pools.v4.map((p) => p.id)].map((a) => a.toLowerCase());
  const repeated = listed.find((a, i) => listed.indexOf(a) !== i);
  if (repeated) throw new ConfigError(`INDEXER_POOLS / INDEXER_V4_POOLS: ${repeated} is listed twice`);
  const planned = pools.contracts.length + pools.v4.length;
  if (planned > settings.maxCandidates) {
    throw new ConfigError(`INDEXER_MAX_CANDIDATES: ${planned} pools are planned, more than the ${settings.maxCandidates} allowed`);
  }
  const filters = [...Object.keys(logSourceKinds).map((source) => addressesOf(pools, source as keyof typeof logSourceKinds)), pools.v4];
  const widest = Math.max(...filters.map((f) => f.length));
  if (widest > settings.maxAddressesPerLogFilter) {
    throw new ConfigError(
      `INDEXER_MAX_ADDRESSES_PER_LOG_FILTER: a log filter would list ${widest} pools, more than the ${settings.maxAddressesPerLogFilter} allowed`,
    );
  }
  return pools;
}

/** A curated pool, to be named by a factory of its kind (any of the chain's Slipstream CL factories). */
function curatedPool(pool: CuratedPool, dexes: DexDeployments): PlannedPool {
  const factories = {
    "uniswap-v2": [dexes.uniswapV2.factory],
    "uniswap-v3": [dexes.uniswapV3.factory],
    slipstream: dexes.slipstream.map((cl) => cl.factory),
    "aerodrome-volatile": [dexes.aerodrome.factory],
    "aerodrome-stable": [dexes.aerodrome.factory],
  }[pool.kind];
  return { ...pool, factories };
}

function trackedTokens(defaults: readonly TokenSpec[], settings: Config["indexer"]): TrackedTokenPlan[] {
  const bySymbol = new Map(defaults.map((t) => [t.symbol, t]));
  for (const token of settings.tokenOverrides) bySymbol.set(token.symbol, token);
  const tokens = [...bySymbol.values()];
  const addresses = new Set(tokens.map((t) => t.address.toLowerCase()));
  if (addresses.size !== tokens.length) throw new ConfigError("INDEXER_TOKENS: two tracked tokens share an address");
  return tokens.map((token) => {
    const threshold = settings.whaleThresholdOverrides[token.symbol] ?? defaultWhaleThresholds[token.symbol];
    if (threshold === undefined) throw new ConfigError(`INDEXER_WHALE_THRESHOLDS: no whale threshold for ${token.symbol}`);
    return { ...token, whaleThreshold: parseUnits(threshold, token.decimals) };
  });
}
