import { readFileSync } from "node:fs";
import { expect, test } from "vitest";
import { EnvSchema } from "../../api/config";

const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");

test("behavior: every environment variable the service reads has a row in the README's configuration table", () => {
  for (const name of Object.keys(EnvSchema.shape)) expect(readme, name).toMatch(new RegExp(`^\\| \`${name}\` +\\|`, "m"));
});
