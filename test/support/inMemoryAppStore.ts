import { PGlite } from "@electric-sql/pglite";
import { beforeAll } from "vitest";
import { type AppStore, createAppStore } from "../../api/store/createAppStore";

/**
 * One in-memory PGlite per test process, kept on globalThis so that it outlives a module reset: its
 * WebAssembly start costs about half a second, which each file run in a process that runs several
 * (vitest.mutate.config.ts: `isolate: false`) would otherwise pay again.
 */
const shared = globalThis as { inMemoryPglite?: PGlite };

/**
 * An app store for one test file, on this process's in-memory PGlite: before the file's tests its
 * schemas are dropped and the migrations applied again, so each file starts on a freshly migrated store
 * (the key epoch's row included), whatever files ran before it in the process.
 */
export function inMemoryAppStore(): Pick<AppStore, "db" | "ready"> {
  let opened: AppStore | undefined;
  beforeAll(async () => {
    shared.inMemoryPglite ??= new PGlite("memory://");
    const client = shared.inMemoryPglite;
    await client.exec("DROP SCHEMA IF EXISTS app CASCADE; DROP SCHEMA IF EXISTS app_migrations CASCADE");
    opened = createAppStore({ kind: "pglite-instance", client });
    await opened.ready;
  });
  return {
    get db() {
      if (!opened) throw new Error("the in-memory store opens in the file's beforeAll");
      return opened.db;
    },
    get ready() {
      if (!opened) throw new Error("the in-memory store opens in the file's beforeAll");
      return opened.ready;
    },
  };
}
