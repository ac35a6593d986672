import { availableParallelism } from "node:os";
import { configDefaults, defineConfig } from "vitest/config";
import { LongestFirstSequencer } from "./test/support/longestFirst";
import { testBackends } from "./test/support/postgres";

const include = ["test/**/*.test.ts", "api/**/*.test.ts", "devnet/**/*.test.ts"];
/**
 * Files that assert what a whole process holds (its promise hooks; its open handles and heap): each runs
 * in a process of its own, after the others.
 */
const ownProcessFiles = ["test/unit/createInProcessFacilitator.devnet.test.ts", "test/mcp/sseSessionLeaks.test.ts"];
/**
 * Files that would run again, alike, when TEST_BACKENDS leaves PGlite out (.ci/run's second run, after the
 * embedded one ran them): so they are left out of it. Their subject is not the store (the clients' agent and
 * retry flows, whose store-dependent cases are in test/clients/clients.test.ts; the load measurers; the
 * dissector's properties; the public listener), or the service they start is on PGlite in either run
 * (`startService` without a DATABASE_URL: the SSE stream test, mainnet mode; the pool verification's
 * indexers), or they are the benches' smoke runs on the embedded store (bench:base's, with its API replica, runs where DATABASE_URL is set:
 * test/bench/baseBenchSmoke.test.ts). On 3 December they took 300-400 s of that run's worker time.
 */
const storeIndependentFiles = [
  "test/clients/agents.test.ts",
  "test/clients/retries.test.ts",
  "test/bench/benchSmoke.test.ts",
  "test/bench/indexerBenchSmoke.test.ts",
  "test/bench/measureLoad.test.ts",
  "test/bench/measureSteadyRate.test.ts",
  "test/mcp/sseUnreadStream.test.ts",
  "test/e2e/mainnetMode.test.ts",
  "test/property/dissector.test.ts",
  "test/listener/startPublicListener.test.ts",
  "test/indexer/poolVerification.test.ts",
];
const storeHalvesOnly = !testBackends().includes("pglite");

export default defineConfig({
  test: {
    globalSetup: ["test/support/globalSetup.ts"],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    pool: "forks",
    // Each worker is one process running file after file: the app's imports (Hono, viem, x402, the MCP
    // SDK) and PGlite's WebAssembly are loaded once per worker instead of once per file. The whole
    // embedded run took 995 s instead of 1,369 s (docs/testing.md#where-the-time-goes).
    isolate: false,
    // Vitest's default (one fork fewer than the cores) runs the files one at a time on a 2-core machine,
    // where most of a devnet file's time is spent waiting on blocks and child processes: two forks there
    // took the suite from 1,007 s to 608 s.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    sequence: { sequencer: LongestFirstSequencer },
    // Vitest starts new worker processes between projects: a project of one file is a process of its own.
    projects: [
      {
        extends: true,
        test: {
          name: "shared",
          include,
          exclude: [...configDefaults.exclude, ...ownProcessFiles, ...(storeHalvesOnly ? storeIndependentFiles : [])],
        },
      },
      ...ownProcessFiles.map((file) => ({ extends: true as const, test: { name: file, include: [file] } })),
    ],
  },
});
