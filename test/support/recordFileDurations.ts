/**
 * `npx tsx test/support/recordFileDurations.ts OUTPUT.log...`: writes each test file's seconds, as vitest's
 * default reporter printed them (`✓ |shared| test/a.test.ts (4 tests) 62150ms`; the longest where a file is
 * in several runs, as in .ci/run's embedded and Postgres runs), to the table the LongestFirstSequencer
 * reads. The reporter's figure counts a file's hooks; its JSON report's start and end times do not (a file
 * that starts its service in `beforeAll` showed there a third of its time).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { stripVTControlCharacters } from "node:util";
import { fileDurationsPath } from "./longestFirst";

/** A file's line of the default reporter, colours stripped: its path in the repository and its milliseconds. */
const fileLine = /^\s*[✓×❯]\s+(?:\|[^|]+\|\s+)?((?:test|api|devnet)\/\S+\.test\.ts)\s+\(\d+ tests?[^)]*\)\s+(\d+)ms/;

const seconds: Record<string, number> = {};
for (const path of process.argv.slice(2)) {
  for (const line of stripVTControlCharacters(readFileSync(path, "utf8")).split("\n")) {
    const match = fileLine.exec(line);
    if (!match?.[1] || !match[2]) continue;
    seconds[match[1]] = Math.max(seconds[match[1]] ?? 0, Math.round(Number(match[2]) / 100) / 10);
  }
}
const sorted = Object.fromEntries(Object.entries(seconds).sort(([a, x], [b, y]) => y - x || a.localeCompare(b)));
writeFileSync(fileDurationsPath, `${JSON.stringify(sorted, null, 2)}\n`);
console.log(
  `${Object.keys(sorted).length} files, ${Object.values(sorted)
    .reduce((a, b) => a + b, 0)
    .toFixed(0)} s in all`,
);
