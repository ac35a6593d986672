import { resolve } from "node:path";
import type { UserConfig } from "vite";

const root = import.meta.dirname;

/** Directories written while the service runs (PGlite's, the devnet's, reports), and PGLITE_DIR / APP_PGLITE_DIR wherever they point. */
const dataDirectories = [".ponder", ".data", ".devnet", ".stryker-tmp", "coverage", "reports"]
  .map((dir) => resolve(root, dir))
  .concat([process.env.PGLITE_DIR, process.env.APP_PGLITE_DIR].filter((dir): dir is string => Boolean(dir)).map((dir) => resolve(dir)));

/**
 * Read by the Vite server Ponder runs to load our files (not by vitest, which has vitest.config.ts).
 * Its watcher only serves `ponder dev`; left on the whole root it rescanned the PGlite directory on
 * every file PGlite wrote (thousands of statx calls a second under load in `npm start`).
 */
export default {
  server: { watch: { ignored: dataDirectories.map((dir) => `${dir}/**`) } },
} satisfies UserConfig;
