import { afterEach, describe, test } from "vitest";
import { benchTimeoutMs, expectFigures, ownDevnetSmokeRuns, stopRunningBench } from "./smokeRun";

afterEach(stopRunningBench);

// Where DATABASE_URL is set: there bench:base serves from an API replica (`ponder serve`) beside its indexer,
// the path a Base deployment takes; without it, one process on PGlite (left to the other benches' smoke runs).
describe.skipIf(!process.env.DATABASE_URL)("bench:base on Postgres", () => {
  test("npm run bench:base with tiny settings: exit 0, last line the documented JSON", { timeout: benchTimeoutMs }, async () => {
    await expectFigures("bench:base", ownDevnetSmokeRuns["bench:base"]);
  });
});
