import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import type { Address, Hex } from "viem";
import type { IndexerBackend } from "./startIndexer";

export type TokenRow = {
  address: Address;
  symbol: string;
  decimals: number | null;
  status: string;
  reason: string | null;
  whaleThreshold: bigint;
};
export type PoolRow = {
  address: Address;
  kind: string;
  factory: Address;
  token0: Address;
  token1: Address;
  fee: number | null;
  tickSpacing: number | null;
  hooks: Address | null;
  reserve0: bigint | null;
  reserve1: bigint | null;
  sqrtPriceX96: bigint | null;
  liquidity: bigint | null;
  tick: number | null;
  tickCount: number;
  ticksIncomplete: boolean;
  blockNumber: bigint;
  volume0: bigint;
  volume1: bigint;
  volumeSince: bigint;
};
export type TickRow = { pool: Hex; tick: number; liquidityNet: bigint; liquidityGross: bigint };
export type SwapRow = {
  blockNumber: bigint;
  logIndex: number;
  pool: Address;
  timestamp: bigint;
  amount0In: bigint;
  amount1In: bigint;
  amount0Out: bigint;
  amount1Out: bigint;
};
export type WhaleRow = {
  txHash: Hex;
  logIndex: number;
  token: Address;
  blockNumber: bigint;
  timestamp: bigint;
  from: Address;
  to: Address;
  amount: bigint;
};
export type PaymentRow = {
  id: string;
  txHash: Hex;
  logIndex: number;
  blockNumber: bigint;
  blockHash: Hex;
  timestamp: bigint;
  from: Address;
  to: Address;
  amount: bigint;
};
export type HeadRow = { number: bigint; hash: Hex; timestamp: bigint };
export type CandidateRow = { address: Hex; kind: string; status: string; reason: string | null };

export type IndexedTables = {
  head: HeadRow | undefined;
  tokens: TokenRow[];
  pools: PoolRow[];
  candidates: CandidateRow[];
  ticks: TickRow[];
  swaps: SwapRow[];
  whales: WhaleRow[];
  payments: PaymentRow[];
};

type Raw = Record<string, unknown>;

/**
 * Every indexed table of chain 8453 in `schema`, in one read. PGlite allows one process at a time: read it
 * only after the indexer has stopped. Postgres can be read live.
 */
export async function readIndexedTables(backend: IndexerBackend, schema: string): Promise<IndexedTables> {
  const queries = {
    head: `select number, hash, timestamp from "${schema}".chain_head where chain_id = 8453`,
    tokens: `select address, symbol, decimals, status, reason, whale_threshold from "${schema}".tracked_token where chain_id = 8453`,
    pools: `select address, kind, factory, token0, token1, fee, tick_spacing, hooks, reserve0, reserve1, sqrt_price_x_96 as sqrt_price_x96, liquidity, tick, tick_count, ticks_incomplete, block_number, volume0, volume1, volume_since from "${schema}".pool where chain_id = 8453`,
    candidates: `select address, kind, status, reason from "${schema}".pool_candidate where chain_id = 8453`,
    ticks: `select pool, tick, liquidity_net, liquidity_gross from "${schema}".pool_tick where chain_id = 8453`,
    swaps: `select block_number, log_index, pool, timestamp, amount0_in, amount1_in, amount0_out, amount1_out from "${schema}".swap where chain_id = 8453`,
    whales: `select tx_hash, log_index, token, block_number, timestamp, "from", "to", amount from "${schema}".whale_transfer where chain_id = 8453`,
    payments: `select id, tx_hash, log_index, block_number, block_hash, timestamp, "from", "to", amount from "${schema}".payment where chain_id = 8453`,
  };
  const raw = await withClient(backend, async (query) => {
    // One snapshot for all tables on Postgres, where the indexer may be writing.
    await query("begin isolation level repeatable read");
    const result: Record<keyof typeof queries, Raw[]> = {
      head: [],
      tokens: [],
      pools: [],
      candidates: [],
      ticks: [],
      swaps: [],
      whales: [],
      payments: [],
    };
    for (const [name, sql] of Object.entries(queries)) result[name as keyof typeof queries] = await query(sql);
    await query("commit");
    return result;
  });
  return {
    head: raw.head.map((r) => convert<HeadRow>(r))[0],
    tokens: raw.tokens.map((r) => convert<TokenRow>(r)),
    pools: raw.pools.map((r) => convert<PoolRow>(r)),
    candidates: raw.candidates.map((r) => convert<CandidateRow>(r)),
    ticks: raw.ticks.map((r) => convert<TickRow>(r)),
    swaps: raw.swaps.map((r) => convert<SwapRow>(r)),
    whales: raw.whales.map((r) => convert<WhaleRow>(r)),
    payments: raw.payments.map((r) => convert<PaymentRow>(r)),
  };
}

const bigintColumns = new Set([
  "number",
  "timestamp",
  "whale_threshold",
  "reserve0",
  "reserve1",
  "sqrt_price_x96",
  "liquidity",
  "liquidity_net",
  "liquidity_gross",
  "block_number",
  "volume0",
  "volume1",
  "volume_since",
  "amount0_in",
  "amount1_in",
  "amount0_out",
  "amount1_out",
  "amount",
]);

/** snake_case SQL row to a camelCase row, numeric(78) columns as bigint. */
function convert<T>(row: Raw): T {
  return Object.fromEntries(
    Object.entries(row).map(([column, value]) => [
      column.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase()),
      value !== null && bigintColumns.has(column) ? BigInt(value as string) : value,
    ]),
  ) as T;
}

async function withClient<T>(backend: IndexerBackend, run: (query: (sql: string) => Promise<Raw[]>) => Promise<T>): Promise<T> {
  if (backend.kind === "postgres") {
    const client = new pg.Client({ connectionString: backend.url });
    await client.connect();
    try {
      return await run(async (sql) => (await client.query(sql)).rows as Raw[]);
    } finally {
      await client.end();
    }
  }
  const db = new PGlite(backend.directory);
  try {
    return await run(async (sql) => (await db.query<Raw>(sql)).rows);
  } finally {
    await db.close();
  }
}
