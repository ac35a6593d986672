import { randomBytes } from "node:crypto";
import pg from "pg";

/**
 * The stores a backend-parametrized suite runs on: PGlite always, Postgres when DATABASE_URL is set;
 * TEST_BACKENDS (a comma-separated subset) narrows that: .ci/run's second run, after the embedded one
 * has covered PGlite, runs the Postgres halves alone.
 */
export function testBackends(): ("pglite" | "postgres")[] {
  const available: ("pglite" | "postgres")[] = process.env.DATABASE_URL ? ["pglite", "postgres"] : ["pglite"];
  const chosen = process.env.TEST_BACKENDS?.split(",").map((name) => name.trim());
  return chosen ? available.filter((name) => chosen.includes(name)) : available;
}

/**
 * A throwaway Postgres database on the server of `DATABASE_URL`, so each Ponder instance in a test
 * has its own `ponder_sync` cache: two devnets share chain id 8453 but not their blocks.
 */
export async function createThrowawayDatabase(baseUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `svc_test_${randomBytes(6).toString("hex")}`;
  await withAdmin(baseUrl, (c) => c.query(`CREATE DATABASE ${name}`));
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => withAdmin(baseUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined),
  };
}

async function withAdmin<T>(baseUrl: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: baseUrl });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}
