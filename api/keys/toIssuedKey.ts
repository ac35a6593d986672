import { getAddress } from "viem";
import type { KeyInfo } from "../store/keyQueries";
import { creditCycleDays, type Tier, tierTerms } from "./planCatalogue";
import type { IssuedKey, KeySelf } from "./records";

/** Requests per minute each tier's keys are allowed: the catalogue's, or TIER_RATE_LIMITS where set. */
export type TierRates = Record<Tier, number>;

/** The catalogue's per-minute limits. */
export const catalogueRates: TierRates = {
  FREE: tierTerms.FREE.rateLimitPerMinute,
  STARTER: tierTerms.STARTER.rateLimitPerMinute,
  GROWTH: tierTerms.GROWTH.rateLimitPerMinute,
  PRO: tierTerms.PRO.rateLimitPerMinute,
};

/** What a tier entitles a key to, as Plans, IssuedKey and KeySelf state it, with the per-minute limit in force. */
export function entitlementsOf(tier: Tier, rates: TierRates): KeySelf["entitlements"] {
  const t = tierTerms[tier];
  return {
    creditsPerCycle: t.creditsPerCycle,
    cycleDays: creditCycleDays,
    dailyLimit: t.dailyLimit,
    rateLimitPerMinute: rates[tier],
  };
}

/** The IssuedKey record of `key`; `rawKey` only when the secret is new (it is never stored). */
export function toIssuedKey(
  key: KeyInfo,
  p: { status: IssuedKey["status"]; rawKey: string | null; payment?: IssuedKey["payment"]; rates: TierRates },
): IssuedKey {
  return {
    status: p.status,
    apiKey: p.rawKey,
    keyId: key.id,
    tier: key.tier,
    wallet: getAddress(key.wallet),
    issuedAt: key.issuedAt.toISOString(),
    expiresAt: key.expiresAt?.toISOString() ?? null,
    entitlements: entitlementsOf(key.tier, p.rates),
    payment: p.payment ?? null,
    notice:
      p.rawKey === null
        ? "The key's secret is unchanged: keep using the key you hold."
        : "Store this API key now: it is shown once and cannot be shown again. Send it in x-api-key or Authorization: Bearer, never in a URL.",
  };
}
