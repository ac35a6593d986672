/**
 * Read by the Vite server Ponder runs to load our files (not by vitest, which has vitest.config.ts).
 * Its watcher only serves `ponder dev`; left on the whole root it rescanned the PGlite directory on
 * every file PGlite wrote (thousands of lstat calls a second under load in `npm start`).
 */
export default {
  server: {
    watch: { ignored: ["**/.ponder/**", "**/.data/**", "**/.devnet/**", "**/.stryker-tmp/**", "**/coverage/**", "**/reports/**"] },
  },
};
