import type { Address, Hex } from "viem";
import { baseNetwork } from "../../base/baseChain";
import { ApiError } from "../errors";
import { countDaily } from "../store/countDaily";
import type { AppDb } from "../store/createAppStore";
import { consumeIntent, findIntent, insertIntent } from "../store/intentQueries";
import { extendKey, insertKey, type KeyInfo } from "../store/keyQueries";
import { insertRedemption, isRedeemed } from "../store/redemptionQueries";
import { generateId, type KeyEnvironment } from "./apiKeyFormat";
import { checkChallenge } from "./checkChallenge";
import type { KeyHasher } from "./createKeyHasher";
import { type PaymentVerifier, requiredConfirmations } from "./createPaymentVerifier";
import type { WalletVerifier } from "./createWalletVerifier";
import type { EthQuote, EthQuoteValue } from "./EthQuote";
import { purchaseMessage } from "./intentMessage";
import { intentTtlMs } from "./intentTtl";
import { mintKeySecret } from "./mintKeySecret";
import { type DurationDays, formatUsd, type PaidTier, priceUsdc, usdcDecimals } from "./planCatalogue";
import { failure, type Result, success } from "./Result";
import type { IssuedKey, PurchaseIntent } from "./records";
import { refusableTransaction } from "./refusableTransaction";
import { toIssuedKey } from "./toIssuedKey";

export type PurchaseRequest = {
  tier: PaidTier;
  userWallet: Address;
  durationDays: DurationDays;
  /** The authenticated key presented for renewal, or null for a new key. */
  renew: { key: KeyInfo; expired: boolean } | null;
};

export type PurchaseService = {
  /** Freezes the price (USDC, and wei when a live quote exists), duration and renewal target for 15 minutes. */
  createIntent(request: PurchaseRequest): Promise<Result<PurchaseIntent>>;
  /** Redeems a confirmed payment for an intent: a new key, or the renewal target's expiry extended. */
  claim(p: { intentId: string; signature: Hex; txHash: Hex }): Promise<Result<IssuedKey>>;
};

export type CreatePurchaseServiceParameters = {
  db: AppDb;
  wallets: WalletVerifier;
  /** Null when no payout address is configured: purchases are unavailable (503). */
  payments: PaymentVerifier | null;
  payTo: Address | null;
  usdc: Address;
  ethQuote: EthQuote;
  hash: KeyHasher;
  environment: KeyEnvironment;
  clock: () => Date;
};

const dayMs = 86_400_000;

export function createPurchaseService(deps: CreatePurchaseServiceParameters): PurchaseService {
  const { db, wallets, payments, payTo, ethQuote, hash, environment, clock } = deps;
  const unavailable = () =>
    new ApiError(503, "PAYMENTS_UNAVAILABLE", "no payout address is configured (PAYOUT_ADDRESS); purchases are unavailable");

  return {
    async createIntent({ tier, userWallet, durationDays, renew }) {
      if (!payTo) return failure(unavailable());
      if (renew) {
        const refusal = renewalRefusal(renew, tier, userWallet);
        if (refusal) return failure(refusal);
      }
      const quote = await ethQuote.weiPerUsd().catch(() => null);
      const amountUsdc = priceUsdc(tier, durationDays);
      const amountWei = quote ? weiFor(amountUsdc, quote) : null;
      const createdAt = clock();
      const fields = { intentId: generateId("int"), wallet: userWallet, createdAt, expiresAt: new Date(createdAt.getTime() + intentTtlMs) };
      const renewKeyId = renew?.key.id ?? null;
      const message = purchaseMessage(fields, { tier, durationDays, amountUsdc, amountWei, payTo, renewKeyId });
      await insertIntent(db, {
        id: fields.intentId,
        kind: "PURCHASE",
        wallet: userWallet.toLowerCase(),
        message,
        createdAt,
        expiresAt: fields.expiresAt,
        tier,
        durationDays,
        amountUsdc,
        amountWei,
        targetKeyId: renewKeyId,
      });
      return success({
        status: "INTENT_CREATED",
        intent: {
          kind: "PURCHASE",
          intentId: fields.intentId,
          userWallet,
          messageToSign: message,
          signatureMethod: "personal_sign",
          createdAt: createdAt.toISOString(),
          expiresAt: fields.expiresAt.toISOString(),
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
        claimWith: "POST /v1/subscribe/crypto",
      });
    },

    async claim({ intentId, signature, txHash }) {
      if (!payments) return failure(unavailable());
      const paidBy = txHash.toLowerCase() as Hex;
      if (await isRedeemed(db, paidBy)) return failure(alreadyRedeemed());
      const checked = await checkChallenge({
        intent: await findIntent(db, intentId, "PURCHASE"),
        signature,
        wallets,
        now: clock(),
        consumed: intentUsed,
        badSignatureStatus: 400,
        enforceExpiry: false,
      });
      if (!checked.ok) return failure(checked.error);
      const intent = checked.value;
      const { tier, durationDays, amountUsdc } = intent;
      if (!tier || !durationDays || amountUsdc === null) throw new Error(`purchase intent ${intent.id} has no frozen terms`);
      const verdict = await payments.verify(
        { wallet: intent.wallet, amountUsdc, amountWei: intent.amountWei, expiresAt: intent.expiresAt },
        paidBy,
      );
      if (!verdict.ok) return failure(verdict.error);
      const paid = verdict.payment;
      const now = clock();
      const secret = mintKeySecret(hash, environment);
      const outcome = await refusableTransaction(db, async (tx) => {
        if (!(await consumeIntent(tx, intent.id, now))) return intentUsed();
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
        if (!redeemed) return alreadyRedeemed();
        await countDaily(tx, renewed ? "KEY_RENEWED" : "PAID_KEY_ISSUED", now);
        return { key, renewed: renewed !== undefined };
      });
      if (!outcome.ok) return outcome;
      const { key, renewed } = outcome.value;
      const payment = { txHash: paidBy, asset: paid.asset, amount: paid.amount.toString() };
      return success(
        toIssuedKey(key, renewed ? { status: "RENEWED", rawKey: null, payment } : { status: "ISSUED", rawKey: secret.raw, payment }),
      );
    },
  };
}

/** Why a presented key cannot be renewed by this purchase, if it cannot. */
function renewalRefusal(renew: { key: KeyInfo; expired: boolean }, tier: PaidTier, wallet: Address): ApiError | null {
  const { key } = renew;
  if (key.tier === "FREE") return new ApiError(400, "RENEWAL_TARGET_INVALID", "a free key cannot be renewed; buy a paid key");
  if (renew.expired)
    return new ApiError(400, "RENEWAL_TARGET_INVALID", "only an active key can be renewed; this one has expired, buy a new key");
  if (key.tier !== tier)
    return new ApiError(400, "RENEWAL_TARGET_INVALID", `the presented key is ${key.tier}; changing tier needs a new key`);
  if (key.wallet !== wallet.toLowerCase())
    return new ApiError(400, "RENEWAL_TARGET_INVALID", "the presented key belongs to another wallet");
  return null;
}

/** The exact wei for `usdcUnits` at `quote`, rounded up to a whole wei. */
function weiFor(usdcUnits: bigint, quote: EthQuoteValue): bigint {
  const scale = 10n ** BigInt(usdcDecimals);
  return (usdcUnits * quote.wei + scale - 1n) / scale;
}

function intentUsed() {
  return new ApiError(400, "INTENT_ALREADY_USED", "this intent has already been redeemed");
}

function alreadyRedeemed() {
  return new ApiError(400, "TX_ALREADY_REDEEMED", "this transaction has already been redeemed (a txHash redeems once)");
}
