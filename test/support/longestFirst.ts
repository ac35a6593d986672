import { readFileSync } from "node:fs";
import { relative, resolve } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/** Where the measured seconds of each test file are kept (written by test/support/recordFileDurations.ts). */
export const fileDurationsPath = resolve(import.meta.dirname, "fileDurations.json");

/**
 * Runs the longest files first, by the seconds each took in a measured run of the whole suite, so that the
 * two workers finish together instead of one running a 6-minute file (the soak) alone at the end. Vitest's
 * own order is by the last run's durations, which a clean clone has none of (it then runs the largest files
 * first), and which the embedded run leaves for the Postgres run with the Postgres-only files at 0 s.
 * A file not in the table (a new one) runs after the measured ones.
 */
export class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const seconds = JSON.parse(readFileSync(fileDurationsPath, "utf8")) as Record<string, number>;
    const root = this.ctx.config.root;
    const of = (file: TestSpecification) => seconds[relative(root, file.moduleId)] ?? 0;
    return [...files].sort((a, b) => of(b) - of(a));
  }
}
