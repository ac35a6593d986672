/**
 * `npx tsx test/support/recordFileDurations.ts REPORT.json...`: writes each test file's seconds in the
 * given vitest JSON reports (`--reporter=json --outputFile=...`; the longest where a file is in several,
 * as in the embedded and the Postgres run) to the table the LongestFirstSequencer reads.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { z } from "zod";
import { fileDurationsPath } from "./longestFirst";

/** What this reads of the report. */
const Report = z.object({ testResults: z.array(z.object({ name: z.string(), startTime: z.number(), endTime: z.number() })) });

/** A file's path in the repository, wherever the run's clone was (vitest reports absolute paths). */
const inRepository = (path: string) => path.match(/\/((?:test|api|devnet)\/.*)$/)?.[1] ?? path;

const seconds: Record<string, number> = {};
for (const path of process.argv.slice(2)) {
  for (const file of Report.parse(JSON.parse(readFileSync(path, "utf8"))).testResults) {
    const name = inRepository(file.name);
    seconds[name] = Math.max(seconds[name] ?? 0, Math.round((file.endTime - file.startTime) / 100) / 10);
  }
}
const sorted = Object.fromEntries(Object.entries(seconds).sort(([a, x], [b, y]) => y - x || a.localeCompare(b)));
writeFileSync(fileDurationsPath, `${JSON.stringify(sorted, null, 2)}\n`);
console.log(
  `${Object.keys(sorted).length} files, ${Object.values(sorted)
    .reduce((a, b) => a + b, 0)
    .toFixed(0)} s in all`,
);
