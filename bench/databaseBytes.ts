import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";

/** Where a service keeps its data: a Postgres database (index, Ponder's sync cache, app store), or PGlite folders. */
export type ServiceStorage = { kind: "postgres"; url: string } | { kind: "pglite"; directories: string[] };

/** Bytes the storage holds now: `pg_database_size` of the database, or the files under the PGlite folders. */
export async function databaseBytes(storage: ServiceStorage): Promise<number> {
  if (storage.kind === "pglite")
    return storage.directories.filter((directory) => existsSync(directory)).reduce((sum, directory) => sum + folderBytes(directory), 0);
  const client = new pg.Client({ connectionString: storage.url });
  await client.connect();
  try {
    const { rows } = await client.query<{ bytes: string }>("SELECT pg_database_size(current_database()) AS bytes");
    return Number(rows[0]?.bytes);
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
