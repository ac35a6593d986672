import { describe, expect, test } from "vitest";
import { creditCycleDays, DurationDays, formatUsd, PaidTier, priceUsdc, Tier, tierTerms, usdcDecimals } from "../../api/keys/planCatalogue";
import { countConfirmations, requiredConfirmations } from "../../api/payments/confirmations";

describe("countConfirmations", () => {
  test("the block itself is the first confirmation; none before the head reaches it", () => {
    expect(countConfirmations(100n, 100n)).toBe(1);
    expect(countConfirmations(102n, 100n)).toBe(3);
    expect(countConfirmations(99n, 100n)).toBe(0);
    expect(countConfirmations(5, 100)).toBe(0);
    expect(countConfirmations(12_345_678n, 12_345_000)).toBe(679);
  });

  test("a payment redeems at its third confirmation: two blocks after its own", () => {
    expect(requiredConfirmations).toBe(3);
    expect(countConfirmations(101n, 100n) >= requiredConfirmations).toBe(false);
    expect(countConfirmations(102n, 100n) >= requiredConfirmations).toBe(true);
  });
});

describe("plan catalogue", () => {
  test("the tiers and terms on sale", () => {
    expect(PaidTier.options).toEqual(["STARTER", "GROWTH", "PRO"]);
    expect(Tier.options).toEqual(["FREE", "STARTER", "GROWTH", "PRO"]);
    expect([31, 90, 365].map((d) => DurationDays.safeParse(d).success)).toEqual([true, true, true]);
    expect([0, 30, 32, 366].map((d) => DurationDays.safeParse(d).success)).toEqual([false, false, false, false]);
    expect(creditCycleDays).toBe(31);
    expect(usdcDecimals).toBe(6);
  });

  test("what each tier grants", () => {
    expect(tierTerms).toEqual({
      FREE: { creditsPerCycle: 300, dailyLimit: 10, rateLimitPerMinute: 30 },
      STARTER: { creditsPerCycle: 10_000, dailyLimit: null, rateLimitPerMinute: 120 },
      GROWTH: { creditsPerCycle: 100_000, dailyLimit: null, rateLimitPerMinute: 600 },
      PRO: { creditsPerCycle: 500_000, dailyLimit: null, rateLimitPerMinute: 1200 },
    });
  });

  test("exact USDC prices: 31 days at list price, 90 days for 2.7 months, 365 days for 10 months", () => {
    const table = Object.fromEntries(
      PaidTier.options.map((tier) => [tier, ([31, 90, 365] as const).map((d) => formatUsd(priceUsdc(tier, d)))]),
    );
    expect(table).toEqual({
      STARTER: ["49.00", "132.30", "490.00"],
      GROWTH: ["299.00", "807.30", "2990.00"],
      PRO: ["999.00", "2697.30", "9990.00"],
    });
    expect(priceUsdc("STARTER", 90)).toBe(132_300_000n);
    expect(priceUsdc("PRO", 365)).toBe(9_990_000_000n);
  });

  test("formatUsd: dollars and two-digit cents, sub-cent units dropped", () => {
    expect(formatUsd(132_300_000n)).toBe("132.30");
    expect(formatUsd(50_000n)).toBe("0.05");
    expect(formatUsd(1_239_999n)).toBe("1.23");
    expect(formatUsd(0n)).toBe("0.00");
    expect(formatUsd(100_000_000_000n)).toBe("100000.00");
  });
});
