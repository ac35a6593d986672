import { rmSync } from "node:fs";
import pg from "pg";
import type { Config } from "../api/config";

/**
 * Forgets everything stored about the previous devnet chain before a fresh one starts. A fresh anvil
 * reuses block numbers and even transaction hashes (its accounts and nonces are deterministic): Ponder
 * would silently serve the old chain's rows from its schema and from the shared `ponder_sync` cache,
 * and the app store (on PGlite, a schema of the index's database) would refuse a new payment as
 * already redeemed. Devnet only: never in mainnet mode.
 */
export async function resetDevnetState(config: Config): Promise<void> {
  if (config.database.kind === "pglite") {
    rmSync(config.database.directory, { recursive: true, force: true });
  }
  if (config.database.kind !== "postgres") return;
  const client = new pg.Client({ connectionString: config.database.url });
  await client.connect();
  try {
    for (const schema of [config.databaseSchema, "ponder_sync", "app", "app_migrations"]) {
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    }
  } finally {
    await client.end();
  }
}
