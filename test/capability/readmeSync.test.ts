import { readFileSync } from "node:fs";
import { expect, test } from "vitest";
import { privilegedSelectors } from "../../api/capability/privilegedSelectors";
import { deductionWeights } from "../../api/capability/scoreCapabilities";

// The published tables live in docs/capability.md. Line breaks in the prose are not meaning: compare with
// white space folded.
const published = readFileSync(new URL("../../docs/capability.md", import.meta.url), "utf8").replace(/\s+/g, " ");

test("behavior: docs/capability.md publishes every privileged selector and every score weight the code uses", () => {
  for (const p of privilegedSelectors) expect(published, p.signature).toContain(`\`${p.signature}\` ${p.selectorHex} (${p.confidence})`);
  for (const [type, points] of Object.entries(deductionWeights)) expect(published, type).toContain(`\`${type}\` ${points}`);
});
