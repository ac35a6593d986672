import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";

/**
 * Read access to the indexed tables: Ponder's read-only `db` in the server, a drizzle client over the
 * same tables in tests. Never written through (on PGlite Ponder's `db` would not stop a write).
 */
export type IndexDb = Pick<PgDatabase<PgQueryResultHKT, Record<string, never>>, "select">;
