import { index, onchainTable, primaryKey } from "ponder";
import type { IndexedPoolKind } from "./src/config/indexerEnv";

/** The newest block the indexer has processed, per chain: how far behind the chain the index is. */
export const chainHead = onchainTable("chain_head", (t) => ({
  chainId: t.integer().primaryKey(),
  number: t.bigint().notNull(),
  hash: t.hex().notNull(),
  timestamp: t.bigint().notNull(),
}));

/**
 * USDC transfers to the payout address: what subscription claims check for amount, sender and
 * finality (confirmations = indexed head - blockNumber). Reorged-out transfers disappear with Ponder's
 * reorg handling.
 */
export const payment = onchainTable("payment", (t) => ({
  /** `${txHash}-${logIndex}` */
  id: t.text().primaryKey(),
  chainId: t.integer().notNull(),
  txHash: t.hex().notNull(),
  logIndex: t.integer().notNull(),
  blockNumber: t.bigint().notNull(),
  blockHash: t.hex().notNull(),
  timestamp: t.bigint().notNull(),
  from: t.hex().notNull(),
  to: t.hex().notNull(),
  /** USDC base units (6 decimals). */
  amount: t.bigint().notNull(),
}));

/**
 * Each tracked token as checked on chain at start: `verified` when its decimals and symbol match the
 * configuration, else `refused` with the reason. A refused token is never indexed or priced.
 */
export const trackedToken = onchainTable(
  "tracked_token",
  (t) => ({
    chainId: t.integer().notNull(),
    address: t.hex().notNull(),
    /** The configured symbol. */
    symbol: t.text().notNull(),
    /** Decimals as read on chain; null when the call failed. */
    decimals: t.integer(),
    status: t.text().$type<"verified" | "refused">().notNull(),
    reason: t.text(),
    /** Transfers of at least this many base units are whale candidates. */
    whaleThreshold: t.bigint().notNull(),
    /** The first block whose transfers are indexed: whale signals never claim a window reaching before it. */
    transfersFromBlock: t.bigint().notNull(),
  }),
  (table) => ({ pk: primaryKey({ columns: [table.chainId, table.address] }) }),
);

/**
 * Indexed pools (those holding at least one verified tracked token, native ETH counting as WETH): the
 * latest state, the block it was observed at, and the volume of the swaps kept in `swap`, i.e. those
 * after `volumeSince`.
 */
export const pool = onchainTable(
  "pool",
  (t) => ({
    chainId: t.integer().notNull(),
    /** The pool's address; for a Uniswap V4 pool (which lives in the PoolManager) its 32-byte pool id. */
    address: t.hex().notNull(),
    kind: t.text().$type<IndexedPoolKind>().notNull(),
    /** The factory that created the pool; the PoolManager for Uniswap V4 pools. */
    factory: t.hex().notNull(),
    /** Token addresses; the zero address is native ETH (Uniswap V4 only). */
    token0: t.hex().notNull(),
    token1: t.hex().notNull(),
    /** Fee tier in hundredths of a bip of V3-style and V4 pools (0x800000: a V4 dynamic fee); null for other kinds. */
    fee: t.integer(),
    /** Tick spacing of V3-style and V4 pools; null for the others. */
    tickSpacing: t.integer(),
    /** A Uniswap V4 pool's hooks contract (its low 14 bits are its permissions); null for other kinds. */
    hooks: t.hex(),
    /** Reserves of V2-style and Aerodrome pools; null for V3-style pools. */
    reserve0: t.bigint(),
    reserve1: t.bigint(),
    /** slot0 and in-range liquidity of V3-style pools; null for the others. */
    sqrtPriceX96: t.bigint(),
    liquidity: t.bigint(),
    tick: t.integer(),
    /** Initialized ticks of a concentrated pool held in `pool_tick`; 0 for the others. */
    tickCount: t.integer().notNull().default(0),
    /**
     * True once a `Mint` or `ModifyLiquidity` would have initialized a tick past INDEXER_MAX_TICKS_PER_POOL:
     * that tick was not stored, so the pool's depth is not exact from then on (the market leaves it out).
     */
    ticksIncomplete: t.boolean().notNull().default(false),
    /** Block at which the state above is the chain's. */
    blockNumber: t.bigint().notNull(),
    /** Base units of token0 and token1 swapped (in plus out) after `volumeSince` (unix seconds). */
    volume0: t.bigint().notNull(),
    volume1: t.bigint().notNull(),
    volumeSince: t.bigint().notNull(),
  }),
  (table) => ({ pk: primaryKey({ columns: [table.chainId, table.address] }) }),
);

/**
 * Each planned pool (a derived candidate, or a curated entry) as start and its first event left it:
 * `indexed` (verified, in `pool`), `watched` (no pool at that address at start: verified and indexed at its
 * first event, Initialize or Sync), or `refused` with the reason. A V4 pool's `address` is its pool id.
 */
export const poolCandidate = onchainTable(
  "pool_candidate",
  (t) => ({
    chainId: t.integer().notNull(),
    address: t.hex().notNull(),
    kind: t.text().$type<IndexedPoolKind>().notNull(),
    status: t.text().$type<"indexed" | "watched" | "refused">().notNull(),
    reason: t.text(),
  }),
  (table) => ({ pk: primaryKey({ columns: [table.chainId, table.address] }) }),
);

/**
 * The initialized ticks of indexed V3-style and V4 pools (from `Mint`/`Burn` and `ModifyLiquidity`, and for a
 * pool that exists at start, read at the start block): crossing `tick` upwards adds `liquidityNet` to the in-range
 * liquidity. What makes a concentrated pool's depth exact across ticks. Rows whose gross liquidity falls
 * to zero are deleted.
 */
export const poolTick = onchainTable(
  "pool_tick",
  (t) => ({
    chainId: t.integer().notNull(),
    /** `pool.address` of the pool. */
    pool: t.hex().notNull(),
    tick: t.integer().notNull(),
    /** Signed. */
    liquidityNet: t.bigint().notNull(),
    liquidityGross: t.bigint().notNull(),
  }),
  (table) => ({ pk: primaryKey({ columns: [table.chainId, table.pool, table.tick] }) }),
);

/**
 * Swaps of indexed pools within the volume window (older ones are pruned), amounts in base units, keyed by
 * block and log index (unique on a chain), which keeps the rows small.
 */
export const swap = onchainTable(
  "swap",
  (t) => ({
    chainId: t.integer().notNull(),
    blockNumber: t.bigint().notNull(),
    logIndex: t.integer().notNull(),
    pool: t.hex().notNull(),
    timestamp: t.bigint().notNull(),
    amount0In: t.bigint().notNull(),
    amount1In: t.bigint().notNull(),
    amount0Out: t.bigint().notNull(),
    amount1Out: t.bigint().notNull(),
  }),
  (table) => ({
    pk: primaryKey({ columns: [table.chainId, table.blockNumber, table.logIndex] }),
    timestampIndex: index().on(table.chainId, table.timestamp),
  }),
);

/** Transfers of verified tracked tokens at or above their whale threshold, within the whale window. */
export const whaleTransfer = onchainTable(
  "whale_transfer",
  (t) => ({
    chainId: t.integer().notNull(),
    txHash: t.hex().notNull(),
    logIndex: t.integer().notNull(),
    token: t.hex().notNull(),
    blockNumber: t.bigint().notNull(),
    timestamp: t.bigint().notNull(),
    from: t.hex().notNull(),
    to: t.hex().notNull(),
    /** Base units of `token`. */
    amount: t.bigint().notNull(),
  }),
  (table) => ({
    pk: primaryKey({ columns: [table.chainId, table.txHash, table.logIndex] }),
    timestampIndex: index().on(table.chainId, table.timestamp),
    blockIndex: index().on(table.chainId, table.blockNumber, table.logIndex),
  }),
);

/**
 * Per chain, the timestamp of the first block the pruner saw: nothing indexed is older, so until the
 * windows reach it there is nothing to prune.
 */
export const pruneState = onchainTable("prune_state", (t) => ({
  chainId: t.integer().primaryKey(),
  since: t.bigint().notNull(),
}));
