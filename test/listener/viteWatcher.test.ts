import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { createServer } from "vite";
import { afterAll, describe, expect, test } from "vitest";

const root = resolve(import.meta.dirname, "../..");

describe("vite.config.ts", () => {
  // PGLITE_DIR's default is .ponder/pglite, APP_PGLITE_DIR's .data/app; test-output/ is an ordinary directory, watched like the sources.
  const planted = [join(root, ".ponder", `watch-test-${process.pid}`), join(root, ".data", `watch-test-${process.pid}`)];
  const control = join(root, "test-output", `watch-test-${process.pid}`);
  afterAll(() => {
    for (const dir of [...planted, control]) rmSync(dir, { recursive: true, force: true });
  });

  test("behavior: the Vite server Ponder starts on the project (as its build/index.js does) watches our sources, not the PGlite directories under .ponder and .data", async () => {
    for (const dir of [...planted, control]) {
      mkdirSync(join(dir, "base", "1"), { recursive: true });
      writeFileSync(join(dir, "base", "1", "16384"), "");
    }
    const server = await createServer({ root, server: { hmr: false }, logLevel: "silent" });
    try {
      const watchedDirs = () => Object.keys(server.watcher.getWatched()).map((dir) => relative(root, dir));
      // The initial scan has reached the control's deepest directory, the twin of the planted one.
      await expect.poll(watchedDirs, { timeout: 60_000, interval: 200 }).toContain(relative(root, join(control, "base", "1")));
      const watched = watchedDirs();
      expect(watched).toContain("api");
      expect(watched.filter((dir) => /^\.(ponder|data)(\/|$)/.test(dir))).toEqual([]);
    } finally {
      await server.close();
    }
  }, 90_000);
});
