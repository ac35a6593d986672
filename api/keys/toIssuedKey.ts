import { getAddress } from "viem";
import type { KeyInfo } from "../store/keyQueries";
import { creditCycleDays, type Tier, tierTerms } from "./planCatalogue";
import type { IssuedKey, KeySelf } from "./records";

/** What a tier entitles a key to, as IssuedKey and KeySelf state it. */
export function entitlementsOf(tier: Tier): KeySelf["entitlements"] {
  const t = tierTerms[tier];
  return {
    creditsPerCycle: t.creditsPerCycle,
    cycleDays: creditCycleDays,
    dailyLimit: t.dailyLimit,
    rateLimitPerMinute: t.rateLimitPerMinute,
  };
}

/** The IssuedKey record of `key`; `rawKey` only when the secret is new (it is never stored). */
export function toIssuedKey(
  key: KeyInfo,
  p: { status: IssuedKey["status"]; rawKey: string | null; payment?: IssuedKey["payment"] },
): IssuedKey {
  return {
    status: p.status,
    apiKey: p.rawKey,
    keyId: key.id,
    tier: key.tier,
    wallet: getAddress(key.wallet),
    issuedAt: key.issuedAt.toISOString(),
    expiresAt: key.expiresAt?.toISOString() ?? null,
    entitlements: entitlementsOf(key.tier),
    payment: p.payment ?? null,
    notice:
      p.rawKey === null
        ? "The key's secret is unchanged: keep using the key you hold."
        : "Store this API key now: it is shown once and cannot be shown again. Send it in x-api-key or Authorization: Bearer, never in a URL.",
  };
}
