import { defineConfig } from "vitest/config";

/**
 * The fast tests Stryker runs against each mutant (`npm run mutate`): no devnet, no globalSetup, so
 * one mutant's run takes milliseconds. Only tests that reach the mutated modules belong here.
 */
export default defineConfig({
  test: {
    include: ["test/unit/**/*.test.ts", "test/access/clientAddressKey.test.ts"],
    testTimeout: 10_000,
    // A store's setup (PGlite and the migrations) took over 10 s once on a loaded machine.
    hookTimeout: 60_000,
    pool: "forks",
  },
});
