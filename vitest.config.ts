import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";
import { LongestFirstSequencer } from "./test/support/longestFirst";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts", "api/**/*.test.ts", "devnet/**/*.test.ts"],
    globalSetup: ["test/support/globalSetup.ts"],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    pool: "forks",
    // Vitest's default (one fork fewer than the cores) runs the files one at a time on a 2-core machine,
    // where most of a devnet file's time is spent waiting on blocks and child processes: two forks there
    // took the suite from 1,007 s to 608 s.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    sequence: { sequencer: LongestFirstSequencer },
  },
});
