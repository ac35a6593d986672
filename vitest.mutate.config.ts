import { defineConfig } from "vitest/config";

/**
 * The fast tests Stryker runs against each mutant (`npm run mutate`): no devnet, no globalSetup (a
 * mutant's run costs a process, its imports and its tests: 1-3 s). Only tests that reach the mutated
 * modules belong here.
 */
export default defineConfig({
  test: {
    // The fast tests of modules whose devnet tests sit beside them (x.test.ts next to x.devnet.test.ts).
    include: [
      "test/unit/**/*.test.ts",
      "test/access/clientAddressKey.test.ts",
      "test/chain/pinObservationBlock.test.ts",
      "test/x402/payPerCall.test.ts",
      "test/x402/createRemoteFacilitator.test.ts",
    ],
    testTimeout: 10_000,
    // A store's setup (PGlite and the migrations) took over 10 s once on a loaded machine.
    hookTimeout: 60_000,
    pool: "forks",
    // Within one run, one process runs file after file and loads each module once (so a file must leave
    // no fakes behind: timers are restored after each test), and test/support/fileAppStore.ts keeps one
    // database per process (a PGlite, or with UNIT_DATABASE_URL a Postgres database of its own), migrated
    // anew for each file: half the time for this suite (19 s, not 41 s) and for a static mutant, whose run
    // takes every file importing its module. vitest starts a new process for each run, so each mutant
    // still pays its own.
    isolate: false,
  },
});
