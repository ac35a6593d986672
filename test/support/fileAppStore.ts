import type { Socket } from "node:net";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { afterAll, beforeAll } from "vitest";
import { type AppStore, createAppStore } from "../../api/store/createAppStore";

/**
 * A Postgres server for the fast tests' app stores (UNIT_DATABASE_URL; set it for `npm run mutate`): each
 * test process then works in a database of its own there. Unset, each process opens an in-memory PGlite.
 * Both are migrated the same way; Postgres saves each process PGlite's WebAssembly start (0.5 s on a
 * quiet machine, 1.7 s on a busy one, against 0.3 s for a connection and the migrations), which Stryker
 * pays once per mutant.
 */
const unitDatabaseUrl = process.env.UNIT_DATABASE_URL || undefined;
/** Test processes that can hold a database of the server at once (vitest's and Stryker's workers). */
const unitDatabaseSlots = 16;

/** Kept on globalThis so that a process running several files (`isolate: false`) opens them once. */
const shared = globalThis as { unitDatabase?: Promise<string>; unitDatabaseLost?: Error; inMemoryPglite?: PGlite };

/**
 * Claims one of the server's test databases (`svc_unit_slot_N`, created the first time) for this
 * process's life: a session advisory lock, which the server releases when the process ends however it
 * ends. Its connection does not keep the process alive; if it is lost, so is the claim, and the next
 * file's store fails rather than share the database with another process.
 */
async function claimUnitDatabase(serverUrl: string): Promise<string> {
  const holder = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 10_000 });
  holder.on("error", (error) => {
    shared.unitDatabaseLost = error;
  });
  await holder.connect();
  try {
    for (let slot = 0; slot < unitDatabaseSlots; slot++) {
      const claimed = await holder.query<{ held: boolean }>("SELECT pg_try_advisory_lock(hashtext('svc_unit_slot'), $1) AS held", [slot]);
      if (!claimed.rows[0]?.held) continue;
      const name = `svc_unit_slot_${slot}`;
      const exists = await holder.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
      if (exists.rowCount === 0) await holder.query(`CREATE DATABASE ${name}`);
      (holder as unknown as { connection: { stream: Socket } }).connection.stream.unref();
      const url = new URL(serverUrl);
      url.pathname = `/${name}`;
      return url.toString();
    }
  } catch (error) {
    await holder.end().catch(() => {});
    throw error;
  }
  await holder.end();
  throw new Error(`all ${unitDatabaseSlots} test databases of ${serverUrl} are held by other processes`);
}

/** Drops the app store's schemas, so that the migrations build it anew. */
const dropAppSchemas = "DROP SCHEMA IF EXISTS app CASCADE; DROP SCHEMA IF EXISTS app_migrations CASCADE";

async function openFreshStore(onPglite: boolean): Promise<AppStore> {
  if (unitDatabaseUrl && !onPglite) {
    shared.unitDatabase ??= claimUnitDatabase(unitDatabaseUrl);
    const url = await shared.unitDatabase;
    if (shared.unitDatabaseLost) throw new Error(`the claim on ${url} was lost: ${shared.unitDatabaseLost.message}`);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(dropAppSchemas).finally(() => client.end());
    return createAppStore({ kind: "postgres", url, poolSize: 4 });
  }
  shared.inMemoryPglite ??= new PGlite("memory://");
  await shared.inMemoryPglite.exec(dropAppSchemas);
  return createAppStore({ kind: "pglite-instance", client: shared.inMemoryPglite });
}

/**
 * The app store for one test file: before its tests the schemas are dropped and the migrations applied
 * again, so each file starts on a freshly migrated store (the key epoch's row included), whatever ran
 * before it in the process. `onPglite`: on PGlite whatever UNIT_DATABASE_URL says, for a file that
 * reaches PGlite's own client, or fakes the timers a Postgres pool runs on.
 */
export function fileAppStore({ onPglite = false } = {}): Pick<AppStore, "db" | "ready"> {
  let opened: AppStore | undefined;
  beforeAll(async () => {
    opened = await openFreshStore(onPglite);
    await opened.ready;
  });
  afterAll(() => opened?.close());
  const whenOpen = () => {
    if (!opened) throw new Error("the test store opens in the file's beforeAll");
    return opened;
  };
  return {
    get db() {
      return whenOpen().db;
    },
    get ready() {
      return whenOpen().ready;
    },
  };
}
