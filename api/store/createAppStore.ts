import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzleNodePg } from "drizzle-orm/node-postgres";
import { migrate as migrateNodePg } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import { releaseZeroPages } from "./releaseZeroPages";
import * as schema from "./schema";

/** The app store's drizzle database, on Postgres or PGlite alike. */
export type AppDb = PgDatabase<PgQueryResultHKT, typeof schema>;

/**
 * Where the app store lives: schema `app` of a Postgres database, a PGlite directory of its own, or
 * schema `app` of a PGlite instance already open in this process (the index's, which its owner closes).
 */
export type AppStoreTarget =
  | { kind: "postgres"; url: string; poolSize?: number }
  | { kind: "pglite"; directory: string }
  | { kind: "pglite-instance"; client: PGlite };

export type AppStore = {
  db: AppDb;
  /** Settles once the migrations are applied; rejects when the store cannot be opened or migrated. */
  ready: Promise<void>;
  close(): Promise<void>;
};

const migrationsFolder = fileURLToPath(new URL("./migrations", import.meta.url));
/** drizzle's record of applied migrations (kept out of `app`, which the first migration creates). */
const migrationsConfig = { migrationsFolder, migrationsSchema: "app_migrations", migrationsTable: "applied" };

/**
 * Opens the app store and starts applying its drizzle-kit migrations; callers await `ready` before
 * their first query. On Postgres an advisory lock keeps replicas that start together from migrating
 * twice.
 */
export function createAppStore(target: AppStoreTarget): AppStore {
  if (target.kind === "postgres") {
    const pool = new pg.Pool({ connectionString: target.url, max: target.poolSize ?? 10 });
    // A connection's error (the server restarting, or ending a connection mid-transaction) must not crash the
    // process: an idle client's reaches the pool; a checked-out client's between its queries reaches the client
    // alone, and its next query fails (503 PERSISTENCE_UNAVAILABLE).
    pool.on("error", () => {});
    pool.on("connect", (client) => client.on("error", () => {}));
    const db = drizzleNodePg(pool, { schema }) as unknown as AppDb;
    const ready = (async () => {
      const client = await pool.connect();
      try {
        await client.query("SELECT pg_advisory_lock(hashtext('app_store_migrations'))");
        await migrateNodePg(drizzleNodePg(client), migrationsConfig);
      } finally {
        await client.query("SELECT pg_advisory_unlock(hashtext('app_store_migrations'))").catch(() => {});
        client.release();
      }
    })();
    ready.catch(() => {});
    return { db, ready, close: () => pool.end() };
  }
  if (target.kind === "pglite-instance") return openOnPglite(target.client, () => Promise.resolve());
  if (!target.directory.startsWith("memory://")) mkdirSync(target.directory, { recursive: true });
  const client = new PGlite(target.directory);
  return openOnPglite(client, () => (client.closed ? Promise.resolve() : client.close()));
}

/** Once migrated, the instance gives back the memory its start left holding only zeros (releaseZeroPages). */
function openOnPglite(client: PGlite, close: () => Promise<void>): AppStore {
  const db = drizzlePglite(client, { schema }) as unknown as AppDb;
  const ready = migratePglite(drizzlePglite(client), migrationsConfig).then(() => {
    releaseZeroPages(client);
  });
  ready.catch(() => {});
  return { db, ready, close };
}
