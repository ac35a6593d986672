import { type Address, formatEther, getAddress } from "viem";
import { createSiweMessage, parseSiweMessage } from "viem/siwe";
import { baseChainId } from "../../base/baseChain";
import { type DurationDays, formatUsd, type PaidTier } from "./planCatalogue";

/** What every challenge names: which service (its public origin), who signs, which intent, and until when. */
export type ChallengeFields = { origin: string; intentId: string; wallet: Address; createdAt: Date; expiresAt: Date };

/** The free-key claim text the wallet signs with personal_sign. */
export function freeKeyMessage(f: ChallengeFields): string {
  return challengeMessage(f, "Claim a free API key of the Base capability service.");
}

/**
 * The recovery text: identical in structure whether or not the wallet holds a recoverable key, so the
 * challenge says nothing about the wallet.
 */
export function recoveryMessage(f: ChallengeFields): string {
  return challengeMessage(f, "Recover the paid API key of this wallet (its current secret is revoked and replaced).");
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
  const terms = [
    t.renewKeyId ? `Renew API key ${t.renewKeyId}` : "Buy a new API key",
    `tier ${t.tier}`,
    `${t.durationDays} days`,
    `pay exactly ${formatUsd(t.amountUsdc)} USDC (${t.amountUsdc} base units)`,
    t.amountWei === null ? "ETH not offered (no live ETH quote)" : `or exactly ${formatEther(t.amountWei)} ETH (${t.amountWei} wei)`,
    `to ${getAddress(t.payTo)}`,
    "from this wallet, in one transaction sent by this wallet.",
  ];
  return challengeMessage(f, terms.join("; "));
}

/**
 * A Sign-In with Ethereum (EIP-4361) message: the service's origin as its domain and URI, Base's chain
 * id, the intent as nonce and request id, and its validity. A wallet can then warn when another site
 * relays our challenge, and the signature binds the wallet to this service, this chain and these terms.
 */
function challengeMessage(f: ChallengeFields, statement: string): string {
  const origin = new URL(f.origin);
  return createSiweMessage({
    domain: origin.host,
    uri: origin.origin,
    address: getAddress(f.wallet),
    statement,
    version: "1",
    chainId: baseChainId,
    nonce: f.intentId.replace(/^int_/, ""),
    issuedAt: f.createdAt,
    expirationTime: f.expiresAt,
    requestId: f.intentId,
  });
}

/** The origin (scheme, host and port) and chain a stored challenge names; null when it is not one of ours. */
export function challengeOrigin(message: string): { origin: string; chainId: number } | null {
  const parsed = parseSiweMessage(message);
  if (!parsed.uri || parsed.chainId === undefined) return null;
  try {
    return { origin: new URL(parsed.uri).origin, chainId: parsed.chainId };
  } catch {
    return null;
  }
}
