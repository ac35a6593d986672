import type { Address, Hex } from "viem";
import { baseNetwork } from "../../base/baseChain";
import { type Failure, failure, type Result, success } from "../errors";
import type { EthQuote, EthQuoteValue } from "../market/EthQuote";
import { requiredConfirmations } from "../payments/confirmations";
import type { PaymentVerifier } from "../payments/createPaymentVerifier";
import { countDaily, counterBucketOf, utcDay } from "../store/countDaily";
import { extendKey, insertKey, type KeyInfo } from "../store/keyQueries";
import { insertRedemption } from "../store/redemptionQueries";
import { generateId } from "./apiKeyFormat";
import { type ChallengeServiceParameters, checkChallenge, consumeChallenge, issueChallenge } from "./challenges";
import { purchaseMessage } from "./intentMessage";
import { mintKeySecret } from "./mintKeySecret";
import { type DurationDays, formatUsd, type PaidTier, priceUsdc, usdcDecimals } from "./planCatalogue";
import type { IssuedKey, PurchaseIntent } from "./records";
import { toIssuedKey } from "./toIssuedKey";

export type PurchaseRequest = {
  tier: PaidTier;
  userWallet: Address;
  durationDays: DurationDays;
  /** The origin the wallet reached us through, named in the message. */
  origin: string;
  /** The authenticated key presented for renewal, or null for a new key. */
  renew: { key: KeyInfo } | null;
};

/** PurchaseIntent as the service answers it (the route adds `claimWith`). */
export type PurchaseIntentOffer = Omit<PurchaseIntent, "claimWith">;

export type PurchaseService = {
  /** Freezes the price (USDC, and wei when a live quote exists), duration and renewal target for 15 minutes. */
  createIntent(request: PurchaseRequest): Promise<Result<PurchaseIntentOffer>>;
  /** Redeems a confirmed payment for an intent: a new key, or the renewal target's expiry extended. */
  claim(p: { intentId: string; signature: Hex; txHash: Hex }): Promise<Result<IssuedKey>>;
};

export type CreatePurchaseServiceParameters = ChallengeServiceParameters & {
  /** Null when no payout address is configured: purchases are unavailable (503). */
  payments: PaymentVerifier | null;
  payTo: Address | null;
  usdc: Address;
  ethQuote: EthQuote;
  /** Called once a renewal moved a key's expiry: this replica's cached keys are dropped at once. */
  onKeyChanged: () => void;
};

const dayMs = 86_400_000;

export function createPurchaseService(deps: CreatePurchaseServiceParameters): PurchaseService {
  const { db, origins, wallets, payments, payTo, ethQuote, hash, environment, clock } = deps;
  const unavailable = failure("PAYMENTS_UNAVAILABLE", "no payout address is configured (PAYOUT_ADDRESS); purchases are unavailable");

  return {
    async createIntent({ tier, userWallet, durationDays, origin, renew }) {
      if (!payTo) return unavailable;
      if (renew) {
        const refusal = renewalRefusal(renew, tier, userWallet);
        if (refusal) return refusal;
      }
      const quote = await ethQuote.weiPerUsd().catch(() => null);
      const amountUsdc = priceUsdc(tier, durationDays);
      const amountWei = quote ? weiFor(amountUsdc, quote) : null;
      const renewKeyId = renew?.key.id ?? null;
      const challenge = await issueChallenge(db, {
        kind: "PURCHASE",
        origin,
        wallet: userWallet,
        now: clock(),
        message: (fields) => purchaseMessage(fields, { tier, durationDays, amountUsdc, amountWei, payTo, renewKeyId }),
        terms: { tier, durationDays, amountUsdc, amountWei, targetKeyId: renewKeyId },
        maxOpen: deps.maxOpenIntentsPerWallet,
      });
      if (!challenge.ok) return challenge;
      return success({
        status: "INTENT_CREATED",
        intent: {
          kind: "PURCHASE",
          ...challenge.value,
          tier,
          durationDays,
          renewKeyId,
          payTo,
          network: baseNetwork,
          confirmationsRequired: requiredConfirmations,
          priceUsd: formatUsd(amountUsdc),
          usdc: { asset: deps.usdc, amount: amountUsdc.toString(), decimals: usdcDecimals },
          eth:
            quote && amountWei !== null
              ? { amountWei: amountWei.toString(), weiPerUsd: quote.wei.toString(), quotedAt: quote.observedAt, quoteSource: quote.source }
              : null,
        },
      });
    },

    async claim({ intentId, signature, txHash }) {
      if (!payments) return unavailable;
      const paidBy = txHash.toLowerCase() as Hex;
      // The intent, its signature and the payment's sender come first: whether a payment was redeemed
      // is told only to the wallet that sent it (the redemption's primary key decides, atomically).
      const checked = await checkChallenge({
        db,
        origins,
        wallets,
        kind: "PURCHASE",
        intentId,
        signature,
        now: clock(),
        consumed: intentUsed,
        badSignature: "INTENT_SIGNATURE_INVALID",
        enforceExpiry: false,
      });
      if (!checked.ok) return checked;
      const intent = checked.value;
      const { tier, durationDays, amountUsdc } = intent;
      if (!tier || !durationDays || amountUsdc === null) throw new Error(`purchase intent ${intent.id} has no frozen terms`);
      const verdict = await payments.verify(
        { wallet: intent.wallet, amountUsdc, amountWei: intent.amountWei, expiresAt: intent.expiresAt },
        paidBy,
      );
      if (!verdict.ok) return verdict;
      const paid = verdict.value;
      const now = clock();
      const secret = mintKeySecret(hash, environment);
      const outcome = await consumeChallenge(db, { intentId: intent.id, now, consumed: intentUsed }, async (tx) => {
        const renewed = intent.targetKeyId ? await extendKey(tx, { keyId: intent.targetKeyId, tier, days: durationDays, now }) : undefined;
        // A renewal target revoked since the intent still gets what was paid for: a new key.
        const key =
          renewed ??
          (await insertKey(tx, {
            id: generateId("key"),
            secretHash: secret.hash,
            tier,
            wallet: intent.wallet,
            issuedAt: now,
            expiresAt: new Date(now.getTime() + durationDays * dayMs),
            cycleAnchor: now,
          }));
        if (!key) throw new Error("a paid key insert returned no row");
        const redeemed = await insertRedemption(tx, {
          txHash: paidBy,
          intentId: intent.id,
          keyId: key.id,
          asset: paid.asset,
          amount: paid.amount,
          redeemedAt: now,
        });
        if (!redeemed) return alreadyRedeemed;
        const bucket = counterBucketOf(environment);
        await countDaily(tx, renewed ? "KEY_RENEWED" : "PAID_KEY_ISSUED", utcDay(now), bucket);
        await countDaily(tx, `PAYMENT_SETTLED_${paid.asset}`, utcDay(now), bucket);
        return { key, renewed: renewed !== undefined };
      });
      if (!outcome.ok) return outcome;
      const { key, renewed } = outcome.value;
      if (renewed) deps.onKeyChanged();
      const payment = { txHash: paidBy, asset: paid.asset, amount: paid.amount.toString() };
      const issued = renewed ? { status: "RENEWED" as const, rawKey: null } : { status: "ISSUED" as const, rawKey: secret.raw };
      return success(toIssuedKey(key, { ...issued, payment, rates: deps.rates }));
    },
  };
}

/** Why a presented key cannot be renewed by this purchase, if it cannot. */
function renewalRefusal(renew: { key: KeyInfo }, tier: PaidTier, wallet: Address): Failure | null {
  const { key } = renew;
  if (key.tier === "FREE") return failure("RENEWAL_TARGET_INVALID", "a free key cannot be renewed; buy a paid key");
  if (key.tier !== tier) return failure("RENEWAL_TARGET_INVALID", `the presented key is ${key.tier}; changing tier needs a new key`);
  if (key.wallet !== wallet.toLowerCase()) return failure("RENEWAL_TARGET_INVALID", "the presented key belongs to another wallet");
  return null;
}

/** The exact wei for `usdcUnits` at `quote`, rounded up to a whole wei. */
function weiFor(usdcUnits: bigint, quote: EthQuoteValue): bigint {
  const scale = 10n ** BigInt(usdcDecimals);
  return (usdcUnits * quote.wei + scale - 1n) / scale;
}

const intentUsed = failure("INTENT_ALREADY_USED", "this intent has already been redeemed");

const alreadyRedeemed = failure("TX_ALREADY_REDEEMED", "this transaction has already been redeemed (a txHash redeems once)");
