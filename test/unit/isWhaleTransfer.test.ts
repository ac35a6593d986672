import { describe, expect, test } from "vitest";
import { isWhaleTransfer } from "../../src/isWhaleTransfer";

const usdc = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";
/** Thresholds keyed by lowercase address, as the indexer builds them from its plan: 1,000,000 USDC. */
const thresholds = new Map([[usdc.toLowerCase(), 1_000_000_000_000n]]);

describe("isWhaleTransfer", () => {
  test("behavior: at the threshold counts, one base unit below does not, one above does", () => {
    expect(isWhaleTransfer(thresholds, usdc, 1_000_000_000_000n)).toBe(true);
    expect(isWhaleTransfer(thresholds, usdc, 999_999_999_999n)).toBe(false);
    expect(isWhaleTransfer(thresholds, usdc, 1_000_000_000_001n)).toBe(true);
  });

  test("behavior: the token's address is matched in any case", () => {
    expect(isWhaleTransfer(thresholds, usdc.toUpperCase().replace("0X", "0x"), 2_000_000_000_000n)).toBe(true);
    expect(isWhaleTransfer(thresholds, usdc.toLowerCase(), 2_000_000_000_000n)).toBe(true);
  });

  test("error: a token without a threshold never gives a signal, whatever the amount", () => {
    const other = "0x4200000000000000000000000000000000000006";
    expect(isWhaleTransfer(thresholds, other, 2n ** 256n - 1n)).toBe(false);
    expect(isWhaleTransfer(new Map(), usdc, 2n ** 256n - 1n)).toBe(false);
  });
});
