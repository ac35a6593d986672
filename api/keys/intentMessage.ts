import { type Address, formatEther, getAddress } from "viem";
import { baseNetwork } from "../../base/baseChain";
import { type DurationDays, formatUsd, type PaidTier } from "./planCatalogue";

/** What every challenge names: who signs, which intent, and until when. */
export type ChallengeFields = { intentId: string; wallet: Address; createdAt: Date; expiresAt: Date };

/** The free-key claim text the wallet signs with personal_sign. */
export function freeKeyMessage(f: ChallengeFields): string {
  return lines("Claim a free API key", f, []);
}

/**
 * The recovery text: identical in structure whether or not the wallet holds a recoverable key, so the
 * challenge says nothing about the wallet.
 */
export function recoveryMessage(f: ChallengeFields): string {
  return lines("Recover the paid API key of this wallet (its current secret is revoked and replaced)", f, []);
}

export type PurchaseTerms = {
  tier: PaidTier;
  durationDays: DurationDays;
  amountUsdc: bigint;
  amountWei: bigint | null;
  payTo: Address;
  renewKeyId: string | null;
};

/** The purchase text: every frozen term of the intent, so the signature binds the wallet to them. */
export function purchaseMessage(f: ChallengeFields, t: PurchaseTerms): string {
  return lines(t.renewKeyId ? `Renew API key ${t.renewKeyId}` : "Buy a new API key", f, [
    `Tier: ${t.tier}`,
    `Duration: ${t.durationDays} days`,
    `Pay exactly: ${formatUsd(t.amountUsdc)} USDC (${t.amountUsdc} base units)`,
    t.amountWei === null
      ? "Or in ETH: not offered (no live ETH quote)"
      : `Or exactly: ${formatEther(t.amountWei)} ETH (${t.amountWei} wei)`,
    `Pay to: ${getAddress(t.payTo)}`,
    "From: this wallet, in one transaction sent by this wallet",
  ]);
}

function lines(action: string, f: ChallengeFields, terms: string[]): string {
  return [
    "Base capability service",
    action,
    "",
    `Wallet: ${getAddress(f.wallet)}`,
    ...terms,
    `Network: ${baseNetwork}`,
    `Intent: ${f.intentId}`,
    `Issued at: ${f.createdAt.toISOString()}`,
    `Expires at: ${f.expiresAt.toISOString()}`,
  ].join("\n");
}
