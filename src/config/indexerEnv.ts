import { type Address, getAddress, type Hex } from "viem";
import { z } from "zod";
import { type UniswapV4PoolKey, uniswapV4PoolId } from "../../base/uniswapV4";

/** The pool families the indexer reads; Slipstream CL pools emit Uniswap V3's events. */
export const IndexedPoolKind = z.enum(["uniswap-v2", "uniswap-v3", "uniswap-v4", "slipstream", "aerodrome-volatile", "aerodrome-stable"]);
export type IndexedPoolKind = z.infer<typeof IndexedPoolKind>;

export type TokenSpec = { symbol: string; address: Address; decimals: number };
/** A curated pool with a contract of its own (a V4 pool is curated by id in INDEXER_V4_POOLS). */
export type CuratedPool = { kind: Exclude<IndexedPoolKind, "uniswap-v4">; address: Address };
/** A Uniswap V4 pool, derived or curated: its id and the key it is the hash of (the PoolManager stores no key). */
export type PlannedV4Pool = { id: Hex; key: UniswapV4PoolKey };

const address = z
  .string()
  .regex(/^0x[0-9a-fA-F]{40}$/, "must be a 0x-prefixed 20-byte hex address")
  .transform((a) => getAddress(a));

/** `A,B , C` as ["A", "B", "C"]: a comma-separated list, entries trimmed, empty ones dropped. */
export const commaList = z.string().transform((s) =>
  s
    .split(",")
    .map((e) => e.trim())
    .filter((e) => e.length > 0),
);

const TokenEntry = z
  .string()
  .transform((e) => e.split(":"))
  .pipe(
    z.tuple(
      [
        z.string().min(1),
        address,
        z
          .string()
          .regex(/^\d{1,2}$/)
          .transform(Number),
      ],
      { message: "expected SYMBOL:0xADDRESS:DECIMALS" },
    ),
  )
  .transform(([symbol, addr, decimals]): TokenSpec => ({ symbol, address: addr, decimals }));

const PoolEntry = z
  .string()
  .transform((e) => e.split(":"))
  .pipe(
    z.tuple(
      [
        IndexedPoolKind.exclude(["uniswap-v4"], {
          message:
            "KIND is one of uniswap-v2, uniswap-v3, slipstream, aerodrome-volatile, aerodrome-stable (V4 pools go in INDEXER_V4_POOLS)",
        }),
        address,
      ],
      { message: "expected KIND:0xADDRESS" },
    ),
  )
  .transform(([kind, addr]): CuratedPool => ({ kind, address: addr }));

const V4PoolEntry = z
  .string()
  .transform((e) => e.split(":"))
  .pipe(
    z.tuple(
      [
        z
          .string()
          .regex(/^0x[0-9a-fA-F]{64}$/, "must be a 0x-prefixed 32-byte pool id")
          .transform((id) => id.toLowerCase() as Hex),
        address,
        address,
        z
          .string()
          .regex(/^\d{1,7}$/)
          .transform(Number),
        z
          .string()
          .regex(/^\d{1,5}$/)
          .transform(Number),
        address,
      ],
      { message: "expected 0xPOOLID:0xCURRENCY0:0xCURRENCY1:FEE:TICKSPACING:0xHOOKS" },
    ),
  )
  .transform(
    ([id, currency0, currency1, fee, tickSpacing, hooks]): PlannedV4Pool => ({
      id,
      key: { currency0, currency1, fee, tickSpacing, hooks },
    }),
  )
  .refine((pool) => uniswapV4PoolId(pool.key) === pool.id, {
    message: "the pool key does not hash to the pool id (keccak256(abi.encode(key)))",
  });

const ThresholdEntry = z
  .string()
  .transform((e) => e.split("="))
  .pipe(
    z.tuple([z.string().min(1), z.string().regex(/^\d+(\.\d+)?$/, "must be a decimal number of token units")], {
      message: "expected SYMBOL=AMOUNT",
    }),
  );

const blockNumber = z.coerce.number().int().nonnegative();
const positiveInt = z.coerce.number().int().positive();

/** The indexer's environment variables (merged into api/env/EnvSchema.ts; documented in docs/configuration.md). */
export const IndexerEnv = z.object({
  /** Tracked tokens to add or replace by symbol: `SYMBOL:0xADDRESS:DECIMALS,...`. */
  INDEXER_TOKENS: commaList.pipe(z.array(TokenEntry)).optional(),
  /** Whale thresholds in token units to replace by symbol: `SYMBOL=AMOUNT,...`. */
  INDEXER_WHALE_THRESHOLDS: commaList.pipe(z.array(ThresholdEntry)).optional(),
  INDEXER_WHALE_WINDOW_SECONDS: positiveInt.default(86_400),
  INDEXER_VOLUME_WINDOW_SECONDS: positiveInt.default(86_400),
  INDEXER_PRUNE_INTERVAL_BLOCKS: positiveInt.default(300),
  /** Curated pools instead of the derived candidates, `KIND:0xADDRESS,...`. */
  INDEXER_POOLS: commaList.pipe(z.array(PoolEntry)).optional(),
  /** Curated Uniswap V4 pools instead of the derived candidates, `0xPOOLID:0xCURRENCY0:0xCURRENCY1:FEE:TICKSPACING:0xHOOKS,...`. */
  INDEXER_V4_POOLS: commaList.pipe(z.array(V4PoolEntry)).optional(),
  /** At most this many pools (candidates or curated entries, V4 ids included) are planned: each is verified at start. */
  INDEXER_MAX_CANDIDATES: positiveInt.default(1_500),
  /** At most this many initialized ticks are read per concentrated pool at start; a pool with more is refused. */
  INDEXER_MAX_TICKS_PER_POOL: positiveInt.default(10_000),
  /** At most this many pool addresses (or V4 pool ids) in one log source's filter, which each eth_getLogs carries. */
  INDEXER_MAX_ADDRESSES_PER_LOG_FILTER: positiveInt.default(1_000),
  /** Mainnet: the block pool and transfer sources start at. */
  INDEXER_START_BLOCK: blockNumber.optional(),
  /** The service's launch block: payments are indexed from here. */
  PAYMENTS_START_BLOCK: blockNumber.optional(),
});
export type IndexerEnv = z.infer<typeof IndexerEnv>;

/** The indexer's part of the service configuration, as parsed from IndexerEnv. */
export type IndexerSettings = {
  tokenOverrides: TokenSpec[];
  whaleThresholdOverrides: Record<string, string>;
  whaleWindowSeconds: number;
  volumeWindowSeconds: number;
  pruneIntervalBlocks: number;
  curatedPools: CuratedPool[] | undefined;
  curatedV4Pools: PlannedV4Pool[] | undefined;
  maxCandidates: number;
  maxTicksPerPool: number;
  maxAddressesPerLogFilter: number;
  startBlock: number | undefined;
  paymentsStartBlock: number | undefined;
};

export function indexerSettings(env: IndexerEnv): IndexerSettings {
  return {
    tokenOverrides: env.INDEXER_TOKENS ?? [],
    whaleThresholdOverrides: Object.fromEntries(env.INDEXER_WHALE_THRESHOLDS ?? []),
    whaleWindowSeconds: env.INDEXER_WHALE_WINDOW_SECONDS,
    volumeWindowSeconds: env.INDEXER_VOLUME_WINDOW_SECONDS,
    pruneIntervalBlocks: env.INDEXER_PRUNE_INTERVAL_BLOCKS,
    curatedPools: env.INDEXER_POOLS,
    curatedV4Pools: env.INDEXER_V4_POOLS,
    maxCandidates: env.INDEXER_MAX_CANDIDATES,
    maxTicksPerPool: env.INDEXER_MAX_TICKS_PER_POOL,
    maxAddressesPerLogFilter: env.INDEXER_MAX_ADDRESSES_PER_LOG_FILTER,
    startBlock: env.INDEXER_START_BLOCK,
    paymentsStartBlock: env.PAYMENTS_START_BLOCK,
  };
}
