import { onchainTable } from "ponder";

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
