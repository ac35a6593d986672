/**
 * The last line of `npm run mutate`: one JSON object summing Stryker's JSON report
 * (reports/mutation/mutation.json), e.g.
 * {"mutationScore":92.5,"killed":111,"survived":9,"timeout":0,"noCoverage":0,"files":7,"seconds":84}
 * The score is Stryker's: detected (killed + timeout) over valid mutants (detected + survived + noCoverage).
 * `seconds` is the run's wall time when MUTATE_STARTED_AT (epoch seconds) is set, else Stryker's own
 * performance figures.
 */
import { readFileSync } from "node:fs";

type Report = {
  files: Record<string, { mutants: { status: string }[] }>;
  performance?: { setup: number; initialRun: number; mutation: number };
};

const path = process.argv[2] ?? "reports/mutation/mutation.json";
const report = JSON.parse(readFileSync(path, "utf8")) as Report;
const count: Record<string, number> = {};
for (const file of Object.values(report.files)) {
  for (const { status } of file.mutants) count[status] = (count[status] ?? 0) + 1;
}
const n = (status: string) => count[status] ?? 0;
const detected = n("Killed") + n("Timeout");
const valid = detected + n("Survived") + n("NoCoverage");
const started = Number(process.env.MUTATE_STARTED_AT);
const performance = report.performance;
const seconds =
  Number.isFinite(started) && started > 0
    ? Math.round(Date.now() / 1000 - started)
    : performance
      ? Math.round((performance.setup + performance.initialRun + performance.mutation) / 1000)
      : null;

console.log(
  JSON.stringify({
    mutationScore: valid === 0 ? null : Math.round((detected / valid) * 10_000) / 100,
    killed: n("Killed"),
    survived: n("Survived"),
    timeout: n("Timeout"),
    noCoverage: n("NoCoverage"),
    files: Object.keys(report.files).length,
    seconds,
  }),
);
