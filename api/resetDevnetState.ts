import { rmSync } from "node:fs";
import pg from "pg";
import type { Config } from "./config";

/**
 * Forgets everything Ponder stored about the previous devnet chain. A fresh anvil reuses block numbers
 * with new hashes, and Ponder would otherwise silently serve the old chain's rows from its schema and
 * from the shared `ponder_sync` cache. Devnet only: never called in mainnet mode.
 */
export async function resetIndexerState(config: Config): Promise<void> {
  if (config.database.kind === "pglite") {
    rmSync(config.database.directory, { recursive: true, force: true });
    return;
  }
  const client = new pg.Client({ connectionString: config.database.url });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${config.databaseSchema}" CASCADE`);
    await client.query("DROP SCHEMA IF EXISTS ponder_sync CASCADE");
  } finally {
    await client.end();
  }
}
