/**
 * An API replica for tests of what replicas share: the API as the server builds it (createServerApp
 * behind our listener on PORT, configured from the environment like the service) without Ponder's
 * indexer or server, over DATABASE_URL (schema `app`; Ponder's tables, which the key and audit routes do
 * not read, would be in its default schema). On SIGINT or SIGTERM it gives its leased credits back and
 * exits, as Ponder's shutdown has the real one do. Usage: tsx apiReplicaProcess.ts; prints the
 * listener's `[api] listening on ...` line when ready.
 */
import { drizzle } from "drizzle-orm/node-postgres";
import pg from "pg";
import { loadConfig } from "../../api/config";
import type { IndexDb } from "../../api/index/indexDb";
import { listenPublicApi } from "../../api/listener/listenPublicApi";

const config = loadConfig();
if (config.database.kind !== "postgres") throw new Error("an API replica needs DATABASE_URL (PGlite cannot be shared)");
const pool = new pg.Pool({ connectionString: config.database.url, max: 2 });
pool.on("error", () => {});
const { credits } = await listenPublicApi(drizzle(pool) as unknown as IndexDb, config);
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    void credits.release().finally(() => process.exit(0));
  });
}
