import { onchainTable } from "ponder";

/** The newest block the indexer has processed, per chain: how far behind the chain the index is. */
export const chainHead = onchainTable("chain_head", (t) => ({
  chainId: t.integer().primaryKey(),
  number: t.bigint().notNull(),
  hash: t.hex().notNull(),
  timestamp: t.bigint().notNull(),
}));
