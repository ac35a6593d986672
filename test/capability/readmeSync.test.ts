import { readFileSync } from "node:fs";
import { expect, test } from "vitest";
import { privilegedSelectors } from "../../api/capability/privilegedSelectors";
import { deductionWeights } from "../../api/capability/scoreCapabilities";

// Line breaks in the prose are not meaning: compare with white space folded.
const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8").replace(/\s+/g, " ");

test("behavior: the README publishes every privileged selector and every score weight the code uses", () => {
  for (const p of privilegedSelectors) expect(readme, p.signature).toContain(`\`${p.signature}\` ${p.selectorHex} (${p.confidence})`);
  for (const [type, points] of Object.entries(deductionWeights)) expect(readme, type).toContain(`\`${type}\` ${points}`);
});
