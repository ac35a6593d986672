import { type Address, parseUnits } from "viem";
import { type Config, ConfigError } from "../../api/config";
import { baseChainId, baseDexFactories, baseTokens, baseUsdc, baseWeth } from "../../base/baseChain";
import { baseUniswapV4PoolManager } from "../../base/uniswapV4";
import { readManifest } from "../../devnet/manifest";
import { baseCuratedPools, baseCuratedV4Pools, defaultWhaleThresholds } from "./baseMainnet";
import type { CuratedPool, CuratedV4Pool, TokenSpec } from "./indexerEnv";

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
  factories: { uniswapV2: Address; uniswapV3: Address; aerodrome: Address; slipstream: Address | undefined };
  /** Uniswap V4's PoolManager (Base's address; the devnet installs its fixture there). */
  poolManager: Address;
  /**
   * Devnet: every pool the factories create and every V4 pool initialized. Mainnet (or INDEXER_POOLS or
   * INDEXER_V4_POOLS on the devnet): the curated lists, verified at start.
   */
  pools: { discovery: "factory" } | { discovery: "list"; curated: CuratedPool[]; curatedV4: CuratedV4Pool[] };
  /** Devnet: fixed blocks. Mainnet: the pinned INDEXER_START_BLOCK, or undefined for head minus the window. */
  startBlocks: { pools: number | undefined; transfers: number | undefined; payments: number | undefined };
  volumeWindowSeconds: number;
  whaleWindowSeconds: number;
  pruneIntervalBlocks: number;
};

/** Resolves the indexer's plan; a token without a threshold or a repeated address stops the process. */
export function indexerPlan(config: Config): IndexerPlan {
  const settings = config.indexer;
  const common = {
    chainId: baseChainId,
    poolManager: baseUniswapV4PoolManager,
    volumeWindowSeconds: settings.volumeWindowSeconds,
    whaleWindowSeconds: settings.whaleWindowSeconds,
    pruneIntervalBlocks: settings.pruneIntervalBlocks,
  };
  if (config.chain.kind === "devnet") {
    const manifest = readManifest(config.chain.manifestPath);
    const usdc = manifest.tokens.USDC;
    const weth = manifest.tokens.WETH;
    if (!usdc || !weth) throw new ConfigError("the devnet manifest has no USDC or no WETH");
    const curatedMode = settings.curatedPools !== undefined || settings.curatedV4Pools !== undefined;
    return {
      ...common,
      usdc: usdc.address,
      weth: weth.address,
      payoutAddress: (config.payoutAddress as Address | undefined) ?? manifest.payoutAddress,
      tokens: trackedTokens(Object.values(manifest.tokens), settings),
      factories: {
        uniswapV2: manifest.dexes.uniswapV2.factory,
        uniswapV3: manifest.dexes.uniswapV3.factory,
        aerodrome: manifest.dexes.aerodrome.factory,
        slipstream: manifest.dexes.slipstream[0]?.factory,
      },
      // INDEXER_POOLS or INDEXER_V4_POOLS runs mainnet's curated mode on the devnet, from the seeded state on.
      pools: curatedMode
        ? { discovery: "list", curated: settings.curatedPools ?? [], curatedV4: settings.curatedV4Pools ?? [] }
        : { discovery: "factory" },
      startBlocks: {
        pools: curatedMode ? (settings.startBlock ?? manifest.seededAtBlock) : 0,
        // Seeding mints huge amounts before seededAtBlock: whale candidates start after it.
        transfers: manifest.seededAtBlock + 1,
        payments: settings.paymentsStartBlock ?? 0,
      },
    };
  }
  if (!config.payoutAddress) throw new ConfigError("PAYOUT_ADDRESS is required on Base mainnet: payments are indexed to it");
  return {
    ...common,
    usdc: baseUsdc,
    weth: baseWeth,
    payoutAddress: config.payoutAddress as Address,
    tokens: trackedTokens(Object.values(baseTokens), settings),
    factories: baseDexFactories,
    pools: {
      discovery: "list",
      curated: settings.curatedPools ?? [...baseCuratedPools],
      curatedV4: settings.curatedV4Pools ?? [...baseCuratedV4Pools],
    },
    startBlocks: {
      pools: settings.startBlock,
      transfers: settings.startBlock,
      payments: settings.paymentsStartBlock ?? settings.startBlock,
    },
  };
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
