import { z } from "zod";
import { baseTokens } from "../../base/baseChain";

export const PaidTier = z.enum(["STARTER", "GROWTH", "PRO"]);
export type PaidTier = z.infer<typeof PaidTier>;

export const Tier = z.enum(["FREE", ...PaidTier.options]);
export type Tier = z.infer<typeof Tier>;

export const DurationDays = z.union([z.literal(31), z.literal(90), z.literal(365)]);
export type DurationDays = z.infer<typeof DurationDays>;

/** Length of a credit cycle, anchored to the key's issuance. */
export const creditCycleDays = 31;

/** Decimals of USDC: prices are exact integers of base units (1 USD = 1,000,000). */
export const usdcDecimals = baseTokens.USDC.decimals;

/** What a tier grants: credits per 31-day cycle, an optional daily cap, and requests per minute. */
export type TierTerms = { creditsPerCycle: number; dailyLimit: number | null; rateLimitPerMinute: number };

export const tierTerms: Record<Tier, TierTerms> = {
  FREE: { creditsPerCycle: 300, dailyLimit: 10, rateLimitPerMinute: 30 },
  STARTER: { creditsPerCycle: 10_000, dailyLimit: null, rateLimitPerMinute: 120 },
  GROWTH: { creditsPerCycle: 100_000, dailyLimit: null, rateLimitPerMinute: 600 },
  PRO: { creditsPerCycle: 500_000, dailyLimit: null, rateLimitPerMinute: 1200 },
};

/** The 31-day price of each paid tier, in USDC base units. */
const monthlyUsdc: Record<PaidTier, bigint> = { STARTER: 49_000_000n, GROWTH: 299_000_000n, PRO: 999_000_000n };

/**
 * Longer terms are discounted multiples of the 31-day price, in tenths: 90 days for 2.7 months' price
 * (about 10% off three cycles), 365 days for 10 months' price (about 15% off 11.8 cycles).
 */
const durationMultipleTenths: Record<DurationDays, bigint> = { 31: 10n, 90: 27n, 365: 100n };

/** The exact USDC price (base units) of `tier` for `durationDays`. */
export function priceUsdc(tier: PaidTier, durationDays: DurationDays): bigint {
  return (monthlyUsdc[tier] * durationMultipleTenths[durationDays]) / 10n;
}

/** Exact decimal text of USDC base units in USD ("132300000" -> "132.30"). */
export function formatUsd(units: bigint): string {
  const cents = units / 10_000n;
  return `${cents / 100n}.${(cents % 100n).toString().padStart(2, "0")}`;
}
