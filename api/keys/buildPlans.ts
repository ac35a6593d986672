import type { Address } from "viem";
import { baseNetwork } from "../../base/baseChain";
import { requiredConfirmations } from "../payments/confirmations";
import { intentTtlMs } from "./intentTtl";
import { creditCycleDays, DurationDays, formatUsd, PaidTier, priceUsdc, type Tier, usdcDecimals } from "./planCatalogue";
import type { Plans } from "./records";
import { entitlementsOf, type TierRates } from "./toIssuedKey";

/** What the catalogue reads of each route: its name, what it costs a key and, when per-call payment is accepted, its price. */
export type PricedRoute = { name: string; access: string; credits?: number; x402PriceUsd?: number };

/**
 * The Plans record: every tier's entitlements and prices, how to pay, and what each existing route
 * costs. x402 prices are listed once per-call payment is accepted (never for a payment that cannot be made).
 */
export function buildPlans({
  payTo,
  usdc,
  routes,
  x402Accepted = false,
  rates,
}: {
  payTo: Address | null;
  usdc: Address;
  routes: readonly PricedRoute[];
  x402Accepted?: boolean;
  /** The per-minute limits in force. */
  rates: TierRates;
}): Plans {
  const durations = DurationDays.options.map((o) => o.value);
  const plan = (tier: Tier) => ({
    tier,
    entitlements: entitlementsOf(tier, rates),
    prices:
      tier === "FREE"
        ? []
        : durations.map((durationDays) => {
            const amount = priceUsdc(tier, durationDays);
            return { durationDays, priceUsd: formatUsd(amount), amountUsdc: amount.toString() };
          }),
  });
  return {
    currency: "USD",
    creditCycleDays,
    plans: [plan("FREE"), ...PaidTier.options.map(plan)],
    payment: {
      network: baseNetwork,
      payTo,
      usdc: { asset: usdc, decimals: usdcDecimals },
      eth: "accepted when the purchase intent carries an exact wei amount (a live ETH quote existed at intent time)",
      confirmationsRequired: requiredConfirmations,
      intentValidityMinutes: intentTtlMs / 60_000,
    },
    credits: routes.flatMap((r) => (r.credits ? [{ route: r.name, credits: r.credits }] : [])),
    x402: x402Accepted
      ? routes.flatMap((r) =>
          r.access === "apiKeyOrX402" && r.x402PriceUsd !== undefined ? [{ route: r.name, priceUsd: r.x402PriceUsd }] : [],
        )
      : [],
  };
}
