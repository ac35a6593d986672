import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { expect, test } from "vitest";
import mutateVitest from "../../vitest.mutate.config";

const root = resolve(import.meta.dirname, "..", "..");

// A module moved or split leaves its old name in these lists, and Stryker then mutates nothing of it, silently.
test("every module Stryker mutates and every fast test file it runs exists", async () => {
  // Plain JavaScript without types: imported by path.
  const strykerConfig = join(root, "stryker.config.mjs");
  const stryker = ((await import(strykerConfig)) as { default: { mutate: string[] } }).default;
  const modules = stryker.mutate.filter((entry) => !entry.startsWith("!"));
  expect(modules.filter((path) => !existsSync(join(root, path.split(":")[0] ?? path)))).toEqual([]);
  const testFiles = (mutateVitest.test?.include ?? []).filter((pattern) => !pattern.includes("*"));
  expect(testFiles.filter((path) => !existsSync(join(root, path)))).toEqual([]);
});
