import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";

/** Where a service keeps its data: a Postgres database (index, Ponder's sync cache, app store), or PGlite folders. */
export type ServiceStorage = { kind: "postgres"; url: string } | { kind: "pglite"; directories: string[] };

/** Bytes the storage holds now: `pg_database_size` of the database, or the files under the PGlite folders. */
export async function databaseBytes(storage: ServiceStorage): Promise<number> {
  if (storage.kind === "pglite")
    return storage.directories.filter((directory) => existsSync(directory)).reduce((sum, directory) => sum + folderBytes(directory), 0);
  const [row] = await query<{ bytes: string }>(storage.url, "SELECT pg_database_size(current_database()) AS bytes");
  return Number(row?.bytes);
}

/**
 * Bytes of each schema's tables with their indexes and TOAST (Postgres: `ponder_sync`, the index's schema,
 * `app`); empty for PGlite, whose files are not split by schema.
 */
export async function schemaBytes(storage: ServiceStorage): Promise<Record<string, number>> {
  if (storage.kind === "pglite") return {};
  const rows = await query<{ schema: string; bytes: string }>(
    storage.url,
    `SELECT n.nspname AS schema, sum(pg_total_relation_size(c.oid)) AS bytes FROM pg_class c
     JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE c.relkind IN ('r', 'm') AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\\_%'
     GROUP BY n.nspname`,
  );
  return Object.fromEntries(rows.map((r) => [r.schema, Number(r.bytes)]));
}

async function query<T extends object>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

function folderBytes(directory: string): number {
  let sum = 0;
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const path = join(directory, entry.name);
    sum += entry.isDirectory() ? folderBytes(path) : statSync(path).size;
  }
  return sum;
}
