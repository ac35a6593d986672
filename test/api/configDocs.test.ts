import { readFileSync } from "node:fs";
import { expect, test } from "vitest";
import { EnvSchema } from "../../api/env/EnvSchema";

const reference = readFileSync(new URL("../../docs/configuration.md", import.meta.url), "utf8");
const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
const rowOf = (name: string) => new RegExp(`^\\| \`${name}\` +\\|.*$`, "m");

test("behavior: every environment variable the service reads has a row in docs/configuration.md", () => {
  for (const name of Object.keys(EnvSchema.shape)) expect(reference, name).toMatch(rowOf(name));
});

test("behavior: the README's short configuration table repeats its rows from the reference, word for word", () => {
  const names = [...readme.matchAll(/^\| `([A-Z0-9_]+)` +\|/gm)].map((m) => m[1] ?? "");
  expect(names.length).toBeGreaterThan(5);
  for (const name of names) expect(reference.match(rowOf(name))?.[0], name).toBe(readme.match(rowOf(name))?.[0]);
});
