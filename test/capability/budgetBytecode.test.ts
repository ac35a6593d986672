import type { Hex } from "viem";
import { describe, expect, it } from "vitest";
import { budgetBytecode } from "../../api/capability/budgetBytecode";

const code = (bytes: number): Hex => `0x${"5b".repeat(bytes)}`;

describe("budgetBytecode", () => {
  it("default: codes within the budget are all kept, in reading order", () => {
    const read = new Map<string, Hex>([
      ["0xa", code(10)],
      ["0xb", code(0)],
      ["0xc", code(20)],
    ]);
    const budget = budgetBytecode(read, 30);
    expect([...budget.codes.keys()]).toEqual(["0xa", "0xb", "0xc"]);
    expect(budget).toMatchObject({ leftOutCount: 0, leftOutBytes: 0 });
  });

  it("behavior: dissection stops at the first code past the budget, even if a later one would fit", () => {
    const read = new Map<string, Hex>([
      ["0xa", code(10)],
      ["0xb", code(25)],
      ["0xc", code(1)],
    ]);
    const budget = budgetBytecode(read, 30);
    expect([...budget.codes.keys()]).toEqual(["0xa"]);
    expect(budget).toMatchObject({ leftOutCount: 2, leftOutBytes: 26 });
  });
});
