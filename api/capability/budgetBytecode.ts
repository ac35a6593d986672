import type { Hex } from "viem";

export type BudgetBytecodeReturnType = {
  /** The codes to dissect: those read first, up to the budget. */
  codes: Map<string, Hex>;
  /** Codes read but not to be dissected, and their bytes. */
  leftOutCount: number;
  leftOutBytes: number;
};

/**
 * Takes codes in the order they were read until the next one would pass `maxBytes`: dissection stops
 * there, so the bytes dissected per observation never exceed the budget.
 */
export function budgetBytecode(read: ReadonlyMap<string, Hex>, maxBytes: number): BudgetBytecodeReturnType {
  const codes = new Map<string, Hex>();
  let used = 0;
  let leftOutCount = 0;
  let leftOutBytes = 0;
  for (const [address, code] of read) {
    const bytes = (code.length - 2) / 2;
    if (leftOutCount === 0 && used + bytes <= maxBytes) {
      codes.set(address, code);
      used += bytes;
    } else {
      leftOutCount += 1;
      leftOutBytes += bytes;
    }
  }
  return { codes, leftOutCount, leftOutBytes };
}
