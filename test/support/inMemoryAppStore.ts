import { afterAll, beforeAll } from "vitest";
import { type AppStore, createAppStore } from "../../api/store/createAppStore";

/** An app store on an in-memory PGlite for one test file: migrated before its tests, closed after them. */
export function inMemoryAppStore(): AppStore {
  const store = createAppStore({ kind: "pglite", directory: "memory://" });
  beforeAll(() => store.ready);
  afterAll(() => store.close());
  return store;
}
