import { afterEach, test } from "vitest";
import { benchTimeoutMs, expectFigures, ownDevnetSmokeRuns, stopRunningBench } from "./smokeRun";

afterEach(stopRunningBench);

test("npm run bench:base with tiny settings: exit 0, last line the documented JSON", { timeout: benchTimeoutMs }, async () => {
  await expectFigures("bench:base", ownDevnetSmokeRuns["bench:base"]);
});
