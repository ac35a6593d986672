import type { Address } from "viem";
import { baseNetwork } from "../../base/baseChain";
import { requiredConfirmations } from "./createPaymentVerifier";
import { intentTtlMs } from "./intentTtl";
import {
  creditCycleDays,
  DurationDays,
  formatUsd,
  PaidTier,
  priceUsdc,
  routeCredits,
  type Tier,
  usdcDecimals,
  x402PricesUsd,
} from "./planCatalogue";
import type { Plans } from "./records";
import { entitlementsOf } from "./toIssuedKey";

/** The Plans record: every tier's entitlements and prices, how to pay, and what each route costs. */
export function buildPlans({ payTo, usdc }: { payTo: Address | null; usdc: Address }): Plans {
  const durations = DurationDays.options.map((o) => o.value);
  const plan = (tier: Tier) => ({
    tier,
    entitlements: entitlementsOf(tier),
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
    credits: routeCredits.map((r) => ({ ...r })),
    x402: x402PricesUsd.map((r) => ({ ...r })),
  };
}
