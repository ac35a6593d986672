import { eq } from "drizzle-orm";
import { type Address, type Hex, keccak256, stringToHex } from "viem";
import { describe, expect, test, vi } from "vitest";
import type { Failure } from "../../api/errors";
import type { IndexedPayment } from "../../api/index/readPayments";
import { issueChallenge } from "../../api/keys/challenges";
import {
  type CreatePurchaseServiceParameters,
  createPurchaseService,
  type PurchaseIntentOffer,
  type PurchaseRequest,
} from "../../api/keys/createPurchaseService";
import { createWalletVerifier } from "../../api/keys/createWalletVerifier";
import { freeKeyMessage } from "../../api/keys/intentMessage";
import type { PaymentVerifier } from "../../api/payments/createPaymentVerifier";
import { type DecidePaymentParameters, decidePayment, type ExpectedPayment } from "../../api/payments/decidePayment";
import type { PaymentTransaction } from "../../api/payments/readPaymentTransaction";
import type { CounterBucket } from "../../api/store/countDaily";
import { findIntent } from "../../api/store/intentQueries";
import { insertKey, type KeyInfo, revokeKey } from "../../api/store/keyQueries";
import { apiKey, redemption } from "../../api/store/schema";
import { baseUsdc } from "../../base/baseChain";
import { fileAppStore } from "../support/fileAppStore";
import {
  anvilAccount,
  challengeServiceParameters,
  challengeText,
  countersOn,
  dayMs,
  minuteMs,
  newKeyNotice,
  settableClock,
  t0,
  testKeyHasher,
  testOrigins,
} from "../support/keyClaims";

// Anvil's well-known development accounts: the buyer, a stranger, and a wallet of the capped service.
// The payout address is anvil's second account (no key needed).
const buyer = anvilAccount(0);
const stranger = anvilAccount(2);
const capped = anvilAccount(4);
const payTo = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8" as Address;
const origins = testOrigins;
const origin = origins.public;

const clock = settableClock(t0);

/** The devnet's reference price, as test/access/support.ts's testEthQuote: 3,000 USD per ETH. */
const quote = { wei: 10n ** 18n / 3000n, observedAt: "2026-03-10T15:20:00.000Z", source: "test: devnet WETH reference price" };
const ethQuote = { weiPerUsd: async () => quote };

/** What createPaymentVerifier's three reads return for one transaction: the read at evidence grade, the index's rows and head. */
type Evidence = Pick<DecidePaymentParameters, "read" | "rows" | "indexHead">;

/** The recorded chain: evidence by lowercase tx hash; a hash not in it is not mined. */
const chain = new Map<Hex, Evidence>();
const verified: { expected: ExpectedPayment; txHash: Hex }[] = [];
const warnings: string[] = [];

/** The payment rules (decidePayment) on recorded evidence, looked up as createPaymentVerifier reads it (lowercase hash). */
const recordedPayments: PaymentVerifier = {
  async verify(expected, txHash) {
    verified.push({ expected, txHash });
    const hash = txHash.toLowerCase() as Hex;
    const evidence = chain.get(hash) ?? { read: { status: "NOT_FOUND" }, rows: [], indexHead: 24_410_400n };
    return decidePayment({ expected, ...evidence, payTo, usdc: baseUsdc, warn: (m) => warnings.push(m) });
  },
};

let serial = 0;
let blockNumber = 24_410_311;

/** A fresh transaction hash (lowercase, as the readers return it). */
const newTxHash = () => keccak256(stringToHex(`purchase test tx ${++serial}`));

type PaymentShape = { minedAt?: Date; confirmations?: number; indexed?: boolean; succeeded?: boolean };

/** Records `from`'s USDC `transfer(payTo, amount)`, mined at `minedAt` (5 minutes after t0), indexed, with 3 confirmations; its hash. */
function paysUsdc(from: Address, amount: bigint, shape: PaymentShape = {}): Hex {
  const txHash = newTxHash();
  blockNumber += 10;
  const block = blockNumber;
  const blockHash = keccak256(stringToHex(`block ${block}`));
  const blockTimestamp = Math.floor((shape.minedAt ?? new Date(t0.getTime() + 5 * minuteMs)).getTime() / 1000);
  const confirmations = shape.confirmations ?? 3;
  const wallet = from.toLowerCase() as Address;
  const payout = payTo.toLowerCase() as Address;
  const transaction: PaymentTransaction = {
    from: wallet,
    to: baseUsdc.toLowerCase() as Address,
    value: 0n,
    succeeded: shape.succeeded ?? true,
    blockNumber: block,
    blockHash,
    blockTimestamp,
    confirmations,
    canonical: true,
    transfers: [{ logIndex: 212, from: wallet, to: payout, amount }],
  };
  const row: IndexedPayment = {
    id: `${txHash}-212`,
    chainId: 8453,
    txHash,
    logIndex: 212,
    blockNumber: BigInt(block),
    blockHash,
    timestamp: BigInt(blockTimestamp),
    from: wallet,
    to: payout,
    amount,
  };
  chain.set(txHash, {
    read: { status: "FOUND", transaction },
    rows: shape.indexed === false ? [] : [row],
    indexHead: BigInt(block + confirmations - 1),
  });
  return txHash;
}

/** Records `from`'s transfer of `wei` to the payout address, mined 5 minutes after t0, with 3 confirmations; its hash. */
function paysEth(from: Address, wei: bigint, shape: PaymentShape = {}): Hex {
  const txHash = newTxHash();
  blockNumber += 10;
  const block = blockNumber;
  const transaction: PaymentTransaction = {
    from: from.toLowerCase() as Address,
    to: payTo.toLowerCase() as Address,
    value: wei,
    succeeded: shape.succeeded ?? true,
    blockNumber: block,
    blockHash: keccak256(stringToHex(`block ${block}`)),
    blockTimestamp: Math.floor((shape.minedAt ?? new Date(t0.getTime() + 5 * minuteMs)).getTime() / 1000),
    confirmations: shape.confirmations ?? 3,
    canonical: true,
    transfers: [],
  };
  chain.set(txHash, { read: { status: "FOUND", transaction }, rows: [], indexHead: BigInt(block) });
  return txHash;
}

const store = fileAppStore();
const onKeyChanged = vi.fn<() => void>();

function service(overrides: Partial<CreatePurchaseServiceParameters> = {}) {
  return createPurchaseService({
    ...challengeServiceParameters(store.db, clock.now),
    payments: recordedPayments,
    payTo,
    usdc: baseUsdc,
    ethQuote,
    onKeyChanged,
    ...overrides,
  });
}

const purchase = (p: Partial<PurchaseRequest> = {}): PurchaseRequest => ({
  tier: "STARTER",
  userWallet: buyer.address,
  durationDays: 31,
  origin,
  renew: null,
  ...p,
});

/** An intent created at t0 (the clock is set there). */
async function intentFor(p: Partial<PurchaseRequest> = {}, overrides: Partial<CreatePurchaseServiceParameters> = {}) {
  clock.set(t0);
  const result = await service(overrides).createIntent(purchase(p));
  if (!result.ok) throw new Error(`intent refused: ${result.code}`);
  return result.value.intent;
}

/** Claims `intent` with `txHash`, signed by `signer` (the buyer), at `at` (6 minutes after t0). */
async function claim(
  intent: PurchaseIntentOffer["intent"],
  txHash: Hex,
  p: { signer?: typeof buyer; at?: Date; overrides?: Partial<CreatePurchaseServiceParameters> } = {},
) {
  clock.set(p.at ?? new Date(t0.getTime() + 6 * minuteMs));
  const signature = await (p.signer ?? buyer).signMessage({ message: intent.messageToSign });
  return service(p.overrides).claim({ intentId: intent.intentId, signature, txHash });
}

const storedKey = async (id: string) => (await store.db.select().from(apiKey).where(eq(apiKey.id, id)))[0];
const redemptionOf = async (txHash: string) => store.db.select().from(redemption).where(eq(redemption.txHash, txHash));
const keyCount = async () => (await store.db.select({ id: apiKey.id }).from(apiKey)).length;

/** The counters of t0's day in `bucket`, by name. */
const counters = (bucket: CounterBucket = "test") => countersOn(store.db, "2026-03-10", bucket);

/** A paid key of the buyer (or `wallet`) inserted directly: issued 20 days before t0, expiring at `expiresAt`. */
async function paidKey(tier: KeyInfo["tier"], expiresAt: Date | null, wallet: Address = buyer.address): Promise<KeyInfo> {
  serial += 1;
  const row = await insertKey(store.db, {
    id: `key_${serial.toString(16).padStart(24, "0")}`,
    secretHash: testKeyHasher(`svc_test_renewal${serial}`),
    tier,
    wallet: wallet.toLowerCase(),
    issuedAt: new Date(t0.getTime() - 20 * dayMs),
    expiresAt,
    cycleAnchor: new Date(t0.getTime() - 20 * dayMs),
  });
  if (!row) throw new Error("key not inserted");
  const { secretHash: _, ...info } = row;
  return info;
}

const starterEntitlements = { creditsPerCycle: 10_000, cycleDays: 31, dailyLimit: null, rateLimitPerMinute: 120 };
const renewedNotice = "The key's secret is unchanged: keep using the key you hold.";

/** The SIWE text of a purchase intent created at t0 through the public origin by the buyer. */
const purchaseText = (intentId: string, terms: string) =>
  challengeText({
    origin,
    wallet: buyer.address,
    statement: `${terms}; to ${payTo}; from this wallet, in one transaction sent by this wallet.`,
    intentId,
    issuedAt: t0,
    expiresAt: new Date(t0.getTime() + 15 * minuteMs),
  });

describe("createPurchaseService: intents", () => {
  test("default: a new STARTER key for 31 days: USDC price, wei at the live quote, 15 minutes, every term in the message", async () => {
    clock.set(t0);
    const result = await service().createIntent(purchase());
    if (!result.ok) throw new Error(result.code);
    const { intentId } = result.value.intent;
    expect(intentId).toMatch(/^int_[0-9a-f]{24}$/);
    expect(result).toEqual({
      ok: true,
      value: {
        status: "INTENT_CREATED",
        intent: {
          kind: "PURCHASE",
          intentId,
          userWallet: buyer.address,
          messageToSign: purchaseText(
            intentId,
            "Buy a new API key; tier STARTER; 31 days; pay exactly 49.00 USDC (49000000 base units); or exactly 0.016333333333333317 ETH (16333333333333317 wei)",
          ),
          signatureMethod: "personal_sign",
          createdAt: "2026-03-10T15:20:30.250Z",
          expiresAt: "2026-03-10T15:35:30.250Z",
          tier: "STARTER",
          durationDays: 31,
          renewKeyId: null,
          payTo,
          network: "eip155:8453",
          confirmationsRequired: 3,
          priceUsd: "49.00",
          usdc: { asset: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913", amount: "49000000", decimals: 6 },
          eth: {
            amountWei: "16333333333333317",
            weiPerUsd: "333333333333333",
            quotedAt: "2026-03-10T15:20:00.000Z",
            quoteSource: "test: devnet WETH reference price",
          },
        },
      },
    });
    // The terms a claim redeems against are frozen with the intent.
    expect(await findIntent(store.db, intentId, "PURCHASE")).toMatchObject({
      kind: "PURCHASE",
      wallet: buyer.address.toLowerCase(),
      createdAt: t0,
      expiresAt: new Date(t0.getTime() + 15 * minuteMs),
      consumedAt: null,
      tier: "STARTER",
      durationDays: 31,
      amountUsdc: 49_000_000n,
      amountWei: 16_333_333_333_333_317n,
      targetKeyId: null,
    });
  });

  test("behavior: the price is the tier's for the duration, in USDC base units; the wei amount is rounded up to a whole wei", async () => {
    const cases = [
      { tier: "PRO", durationDays: 365, priceUsd: "9990.00", amount: "9990000000", amountWei: "3329999999999996670" },
      // 807.3 × 333333333333333 = 269099999999999730.9 wei: 731.
      { tier: "GROWTH", durationDays: 90, priceUsd: "807.30", amount: "807300000", amountWei: "269099999999999731" },
      { tier: "STARTER", durationDays: 90, priceUsd: "132.30", amount: "132300000", amountWei: "44099999999999956" },
    ] as const;
    for (const c of cases) {
      const intent = await intentFor({ tier: c.tier, durationDays: c.durationDays });
      expect(intent).toMatchObject({ tier: c.tier, durationDays: c.durationDays, priceUsd: c.priceUsd });
      expect(intent.usdc).toEqual({ asset: baseUsdc, amount: c.amount, decimals: 6 });
      expect(intent.eth?.amountWei).toBe(c.amountWei);
      expect(intent.messageToSign).toContain(
        `tier ${c.tier}; ${c.durationDays} days; pay exactly ${c.priceUsd} USDC (${c.amount} base units)`,
      );
      expect(intent.messageToSign).toContain(`(${c.amountWei} wei)`);
    }
  });

  test("default: without a live quote (none, or the quote fails) ETH is not offered: eth is null, and so is the frozen wei amount", async () => {
    const quotes = [{ weiPerUsd: async () => null }, { weiPerUsd: () => Promise.reject(new Error("index unreachable")) }];
    for (const noQuote of quotes) {
      const intent = await intentFor({}, { ethQuote: noQuote });
      expect(intent.eth).toBeNull();
      expect(intent.messageToSign).toBe(
        purchaseText(
          intent.intentId,
          "Buy a new API key; tier STARTER; 31 days; pay exactly 49.00 USDC (49000000 base units); ETH not offered (no live ETH quote)",
        ),
      );
      expect(await findIntent(store.db, intent.intentId, "PURCHASE")).toMatchObject({ amountUsdc: 49_000_000n, amountWei: null });
    }
  });

  test("error: without a payout address intents and claims are PAYMENTS_UNAVAILABLE, and no intent is stored", async () => {
    const unavailable = {
      ok: false,
      code: "PAYMENTS_UNAVAILABLE",
      message: "no payout address is configured (PAYOUT_ADDRESS); purchases are unavailable",
    };
    const quoteAsked = vi.fn(async () => quote);
    const wallet = anvilAccount(5);
    clock.set(t0);
    const none = service({ payTo: null, payments: null, ethQuote: { weiPerUsd: quoteAsked } });
    expect(await none.createIntent(purchase({ userWallet: wallet.address }))).toEqual(unavailable);
    expect(quoteAsked).not.toHaveBeenCalled();
    // A stored intent and a paid transaction change nothing.
    const intent = await intentFor();
    const tx = paysUsdc(buyer.address, 49_000_000n);
    expect(await claim(intent, tx, { overrides: { payTo: null, payments: null } })).toEqual(unavailable);
    expect(await findIntent(store.db, intent.intentId, "PURCHASE")).toMatchObject({ consumedAt: null });
    expect(await redemptionOf(tx)).toEqual([]);
  });

  test("error: a renewal is refused for a free key, a key of another tier and another wallet's key (RENEWAL_TARGET_INVALID)", async () => {
    const free = await paidKey("FREE", null, stranger.address);
    const growth = await paidKey("GROWTH", new Date(t0.getTime() + 10 * dayMs));
    const starter = await paidKey("STARTER", new Date(t0.getTime() + 10 * dayMs));
    const refusals = [
      {
        request: purchase({ userWallet: stranger.address, renew: { key: free } }),
        message: "a free key cannot be renewed; buy a paid key",
      },
      { request: purchase({ renew: { key: growth } }), message: "the presented key is GROWTH; changing tier needs a new key" },
      {
        request: purchase({ userWallet: stranger.address, renew: { key: starter } }),
        message: "the presented key belongs to another wallet",
      },
    ];
    for (const { request, message } of refusals) {
      clock.set(t0);
      expect(await service().createIntent(request)).toEqual({ ok: false, code: "RENEWAL_TARGET_INVALID", message });
    }
    // The same key renews for its own wallet, however the address is written.
    for (const userWallet of [buyer.address, buyer.address.toLowerCase() as Address]) {
      const intent = await intentFor({ userWallet, renew: { key: starter } });
      expect(intent).toMatchObject({ renewKeyId: starter.id, userWallet });
      expect(intent.messageToSign).toContain(`Renew API key ${starter.id}; tier STARTER; 31 days;`);
      expect(await findIntent(store.db, intent.intentId, "PURCHASE")).toMatchObject({ targetKeyId: starter.id });
    }
  });

  test("error: a wallet holding its cap of open intents is TOO_MANY_OPEN_INTENTS until one expires", async () => {
    clock.set(t0);
    const cap = service({ maxOpenIntentsPerWallet: 1 });
    expect(await cap.createIntent(purchase({ userWallet: capped.address }))).toMatchObject({ ok: true });
    clock.set(t0.getTime() + 5 * minuteMs);
    expect(await cap.createIntent(purchase({ userWallet: capped.address }))).toEqual({
      ok: false,
      code: "TOO_MANY_OPEN_INTENTS",
      message: "this wallet already holds 1 open intents (each is open 15 minutes unless claimed); claim one, or retry in 600 s",
      details: { retryAfterSeconds: 600 },
    });
  });
});

describe("createPurchaseService: claims", () => {
  test("default: the intent's wallet signs and pays exactly in USDC: a new key of the tier for 31 days from the claim, the payment redeemed once", async () => {
    const intent = await intentFor();
    const tx = paysUsdc(buyer.address, 49_000_000n);
    const before = await counters();
    verified.length = 0;
    onKeyChanged.mockClear();
    const claimedAt = new Date(t0.getTime() + 6 * minuteMs);
    const result = await claim(intent, tx, { at: claimedAt });
    if (!result.ok) throw new Error(`${result.code}: ${result.message}`);
    const issued = result.value;
    expect(issued.keyId).toMatch(/^key_[0-9a-f]{24}$/);
    expect(issued.apiKey).toMatch(/^svc_test_[1-9A-HJ-NP-Za-km-z]{40,44}$/);
    expect(result).toEqual({
      ok: true,
      value: {
        status: "ISSUED",
        apiKey: issued.apiKey,
        keyId: issued.keyId,
        tier: "STARTER",
        wallet: buyer.address,
        issuedAt: "2026-03-10T15:26:30.250Z",
        expiresAt: "2026-04-10T15:26:30.250Z",
        entitlements: starterEntitlements,
        payment: { txHash: tx, asset: "USDC", amount: "49000000" },
        notice: newKeyNotice,
      },
    });
    // The payment was checked against the intent's frozen terms.
    expect(verified).toEqual([
      {
        expected: {
          wallet: buyer.address.toLowerCase(),
          amountUsdc: 49_000_000n,
          amountWei: 16_333_333_333_333_317n,
          expiresAt: new Date(t0.getTime() + 15 * minuteMs),
        },
        txHash: tx,
      },
    ]);
    // Only the secret's keyed hash is stored.
    expect(await storedKey(issued.keyId)).toEqual({
      id: issued.keyId,
      secretHash: testKeyHasher(issued.apiKey as string),
      secretVersion: 1,
      tier: "STARTER",
      wallet: buyer.address.toLowerCase(),
      issuedAt: claimedAt,
      expiresAt: new Date(claimedAt.getTime() + 31 * dayMs),
      cycleAnchor: claimedAt,
      revokedAt: null,
    });
    expect(await redemptionOf(tx)).toEqual([
      { txHash: tx, intentId: intent.intentId, keyId: issued.keyId, asset: "USDC", amount: 49_000_000n, redeemedAt: claimedAt },
    ]);
    expect(await findIntent(store.db, intent.intentId, "PURCHASE")).toMatchObject({ consumedAt: claimedAt });
    const after = await counters();
    expect(after.PAID_KEY_ISSUED).toBe((before.PAID_KEY_ISSUED ?? 0) + 1);
    expect(after.PAYMENT_SETTLED_USDC).toBe((before.PAYMENT_SETTLED_USDC ?? 0) + 1);
    expect(after.KEY_RENEWED).toBe(before.KEY_RENEWED);
    expect(onKeyChanged).not.toHaveBeenCalled();
  });

  test("default: exactly the frozen wei sent by the intent's wallet issues a key paid in ETH; the live bucket counts a live key", async () => {
    const intent = await intentFor({ tier: "GROWTH", durationDays: 365 });
    const wei = BigInt(intent.eth?.amountWei as string);
    expect(wei).toBe(2990n * quote.wei);
    const tx = paysEth(buyer.address, wei);
    const before = await counters();
    const result = await claim(intent, tx, { overrides: { environment: "live" } });
    if (!result.ok) throw new Error(`${result.code}: ${result.message}`);
    expect(result.value).toMatchObject({
      status: "ISSUED",
      tier: "GROWTH",
      wallet: buyer.address,
      expiresAt: "2027-03-10T15:26:30.250Z",
      entitlements: { creditsPerCycle: 100_000, cycleDays: 31, dailyLimit: null, rateLimitPerMinute: 600 },
      payment: { txHash: tx, asset: "ETH", amount: wei.toString() },
    });
    expect(result.value.apiKey).toMatch(/^svc_live_/);
    expect(await redemptionOf(tx)).toMatchObject([{ asset: "ETH", amount: wei, keyId: result.value.keyId }]);
    // Counted in the production bucket, not the test one.
    expect(await counters()).toEqual(before);
    expect(await counters("production")).toEqual({ PAID_KEY_ISSUED: 1, PAYMENT_SETTLED_ETH: 1 });
  });

  test("behavior: the intent's 15 minutes bound the payment's block, not the claim: a payment mined in time is claimed a day later", async () => {
    const intent = await intentFor();
    const inTime = paysUsdc(buyer.address, 49_000_000n, { minedAt: new Date(t0.getTime() + 15 * minuteMs) });
    const late = paysUsdc(buyer.address, 49_000_000n, { minedAt: new Date(t0.getTime() + 15 * minuteMs + 1000) });
    const nextDay = new Date(t0.getTime() + dayMs);
    expect(await claim(intent, late, { at: nextDay })).toEqual({
      ok: false,
      code: "INTENT_EXPIRED",
      message: "the payment was mined after the intent expired; create a new intent (a refund is not automatic)",
    });
    const result = await claim(intent, inTime, { at: nextDay });
    expect(result).toMatchObject({ ok: true, value: { status: "ISSUED", issuedAt: "2026-03-11T15:20:30.250Z" } });
  });

  test("behavior: a payment mined after its intent expired redeems a later intent of the same wallet and amount (how a late payment is recovered), once", async () => {
    const first = await intentFor();
    const late = paysUsdc(buyer.address, 49_000_000n, { minedAt: new Date(t0.getTime() + 20 * minuteMs) });
    expect(await claim(first, late, { at: new Date(t0.getTime() + 25 * minuteMs) })).toMatchObject({ ok: false, code: "INTENT_EXPIRED" });
    clock.set(t0.getTime() + 30 * minuteMs);
    const second = await service().createIntent(purchase());
    if (!second.ok) throw new Error(`intent refused: ${second.code}`);
    const result = await claim(second.value.intent, late, { at: new Date(t0.getTime() + 31 * minuteMs) });
    expect(result).toMatchObject({ ok: true, value: { status: "ISSUED", tier: "STARTER" } });
    expect(await redemptionOf(late)).toHaveLength(1);
    expect(await claim(first, late, { at: new Date(t0.getTime() + 32 * minuteMs) })).toMatchObject({ ok: false });
  });

  test("error: an unknown intent, or an intent of another kind, is INTENT_NOT_FOUND", async () => {
    const tx = paysUsdc(buyer.address, 49_000_000n);
    const signature = await buyer.signMessage({ message: "anything" });
    const notFound = { ok: false, code: "INTENT_NOT_FOUND", message: "no intent of this kind has this intentId" };
    expect(await service().claim({ intentId: "int_0123456789abcdef01234567", signature, txHash: tx })).toEqual(notFound);
    // A free-key challenge of the same store is not a purchase intent.
    const free = await issueChallenge(store.db, {
      kind: "FREE",
      origin,
      wallet: buyer.address,
      now: t0,
      message: freeKeyMessage,
      maxOpen: 1e6,
    });
    if (!free.ok) throw new Error(free.code);
    const freeSignature = await buyer.signMessage({ message: free.value.messageToSign });
    expect(await service().claim({ intentId: free.value.intentId, signature: freeSignature, txHash: tx })).toEqual(notFound);
    expect(await redemptionOf(tx)).toEqual([]);
  });

  test("error: a signature by another key is INTENT_SIGNATURE_INVALID before the payment is looked at; the rightful signer then redeems it", async () => {
    const intent = await intentFor();
    const tx = paysUsdc(buyer.address, 49_000_000n);
    verified.length = 0;
    expect(await claim(intent, tx, { signer: stranger })).toEqual({
      ok: false,
      code: "INTENT_SIGNATURE_INVALID",
      message: "the signature is not the intent wallet's personal_sign of messageToSign",
    });
    expect(verified).toEqual([]);
    expect(await findIntent(store.db, intent.intentId, "PURCHASE")).toMatchObject({ consumedAt: null });
    expect(await redemptionOf(tx)).toEqual([]);
    expect(await claim(intent, tx)).toMatchObject({ ok: true, value: { status: "ISSUED" } });
  });

  test("behavior: the real wallet verifier settles the buyer's signature with no provider; another's, which it must ask the chain about, is DATA_SOURCE_UNAVAILABLE", async () => {
    const wallets = createWalletVerifier({ providers: [], chainId: 8453 });
    const intent = await intentFor();
    const tx = paysUsdc(buyer.address, 49_000_000n);
    expect(await claim(intent, tx, { signer: stranger, overrides: { wallets } })).toEqual({
      ok: false,
      code: "DATA_SOURCE_UNAVAILABLE",
      message: "the signature cannot be checked at evidence grade now (NO_PROVIDER_ANSWERED); retry later",
    });
    expect(await claim(intent, tx, { overrides: { wallets } })).toMatchObject({ ok: true, value: { status: "ISSUED" } });
  });

  test("error: an intent naming an origin this service does not serve is CHALLENGE_ORIGIN_MISMATCH", async () => {
    const intent = await intentFor({ origin: "https://relay.example" });
    expect(intent.messageToSign).toContain("URI: https://relay.example");
    expect(await claim(intent, paysUsdc(buyer.address, 49_000_000n))).toEqual({
      ok: false,
      code: "CHALLENGE_ORIGIN_MISMATCH",
      message: "the challenge names an origin or chain this service does not serve; request a new one",
    });
    // The fallback origin is served.
    const fallback = await intentFor({ origin: origins.fallback });
    expect(await claim(fallback, paysUsdc(buyer.address, 49_000_000n))).toMatchObject({ ok: true });
  });

  test("error: each payment refusal is answered unchanged, consumes nothing and redeems nothing; the intent is then redeemed by its payment", async () => {
    const intent = await intentFor();
    const usdcOnly = await intentFor({}, { ethQuote: { weiPerUsd: async () => null } });
    const wei = BigInt(intent.eth?.amountWei as string);
    const unreadable = newTxHash();
    chain.set(unreadable, { read: { status: "UNAVAILABLE", reason: "NO_PUBLIC_QUORUM" }, rows: [], indexHead: undefined });
    const refusals: [PurchaseIntentOffer["intent"], Hex, Failure][] = [
      [
        intent,
        unreadable,
        {
          ok: false,
          code: "DATA_SOURCE_UNAVAILABLE",
          message: "the transaction cannot be read at evidence grade now (NO_PUBLIC_QUORUM); retry later",
        },
      ],
      [
        intent,
        newTxHash(),
        { ok: false, code: "PAYMENT_NOT_FOUND", message: "no mined transaction has this hash (yet); retry once it is mined" },
      ],
      [
        intent,
        paysUsdc(stranger.address, 49_000_000n),
        { ok: false, code: "PAYMENT_SENDER_MISMATCH", message: "the transaction was not sent by the intent's wallet" },
      ],
      [
        intent,
        paysUsdc(buyer.address, 48_999_999n),
        {
          ok: false,
          code: "PAYMENT_AMOUNT_MISMATCH",
          message: "the USDC amount is not the intent's exact amount",
          details: { expected: "49000000", received: ["48999999"] },
        },
      ],
      [
        intent,
        paysUsdc(buyer.address, 49_000_000n, { indexed: false }),
        { ok: false, code: "PAYMENT_NOT_INDEXED", message: "this USDC transfer is not indexed yet; retry in a few seconds" },
      ],
      [
        intent,
        paysUsdc(buyer.address, 49_000_000n, { confirmations: 2 }),
        {
          ok: false,
          code: "PAYMENT_NOT_FINAL",
          message: "the payment has 2 of 3 confirmations; retry shortly",
          details: { confirmations: 2, required: 3 },
        },
      ],
      [
        intent,
        paysEth(buyer.address, wei + 1n),
        {
          ok: false,
          code: "PAYMENT_AMOUNT_MISMATCH",
          message: "the ETH value is not the intent's exact amount",
          details: { expected: wei.toString(), received: [(wei + 1n).toString()] },
        },
      ],
      [
        intent,
        paysEth(buyer.address, wei, { succeeded: false }),
        { ok: false, code: "PAYMENT_FAILED", message: "the transaction reverted" },
      ],
      [
        usdcOnly,
        paysEth(buyer.address, wei),
        {
          ok: false,
          code: "ETH_NOT_OFFERED",
          message: "this intent has no ETH amount (no live quote when it was created); pay in USDC",
        },
      ],
    ];
    const keys = await keyCount();
    for (const [i, tx, refusal] of refusals) {
      expect(await claim(i, tx), refusal.code).toEqual(refusal);
      expect(await redemptionOf(tx)).toEqual([]);
    }
    expect(await keyCount()).toBe(keys);
    for (const i of [intent, usdcOnly]) {
      expect(await findIntent(store.db, i.intentId, "PURCHASE")).toMatchObject({ consumedAt: null });
      expect(await claim(i, paysUsdc(buyer.address, 49_000_000n))).toMatchObject({ ok: true, value: { status: "ISSUED" } });
    }
  });

  test("error: a redeemed txHash is TX_ALREADY_REDEEMED for another intent of its payer (in any case), which stays unconsumed; another wallet only learns it did not send it", async () => {
    const first = await intentFor();
    const tx = paysUsdc(buyer.address, 49_000_000n);
    const issued = await claim(first, tx);
    expect(issued).toMatchObject({ ok: true });
    const keys = await keyCount();
    const before = await counters();
    const second = await intentFor();
    const alreadyRedeemed = {
      ok: false,
      code: "TX_ALREADY_REDEEMED",
      message: "this transaction has already been redeemed (a txHash redeems once)",
    };
    for (const spelling of [tx, tx.toUpperCase().replace("0X", "0x") as Hex]) {
      expect(await claim(second, spelling)).toEqual(alreadyRedeemed);
    }
    // Rolled back: no key, no count, the intent still open.
    expect(await keyCount()).toBe(keys);
    expect(await counters()).toEqual(before);
    expect(await findIntent(store.db, second.intentId, "PURCHASE")).toMatchObject({ consumedAt: null });
    expect(await redemptionOf(tx)).toMatchObject([{ intentId: first.intentId }]);
    // Another wallet, with its own intent and signature, is told only that it did not send the payment.
    const theirs = await intentFor({ userWallet: stranger.address });
    expect(await claim(theirs, tx, { signer: stranger })).toEqual({
      ok: false,
      code: "PAYMENT_SENDER_MISMATCH",
      message: "the transaction was not sent by the intent's wallet",
    });
    // The second intent redeems a payment of its own.
    expect(await claim(second, paysUsdc(buyer.address, 49_000_000n))).toMatchObject({ ok: true, value: { status: "ISSUED" } });
  });

  test("behavior: a txHash in upper case is redeemed and recorded in lower case", async () => {
    const intent = await intentFor();
    const tx = paysUsdc(buyer.address, 49_000_000n);
    const result = await claim(intent, tx.toUpperCase().replace("0X", "0x") as Hex);
    expect(result).toMatchObject({ ok: true, value: { payment: { txHash: tx, asset: "USDC", amount: "49000000" } } });
    expect(await redemptionOf(tx)).toMatchObject([{ txHash: tx, intentId: intent.intentId }]);
    expect(await claim(await intentFor(), tx)).toMatchObject({ ok: false, code: "TX_ALREADY_REDEEMED" });
  });

  test("error: a claimed intent is INTENT_ALREADY_USED, with its own payment or another", async () => {
    const intent = await intentFor();
    const tx = paysUsdc(buyer.address, 49_000_000n);
    expect(await claim(intent, tx)).toMatchObject({ ok: true });
    const used = { ok: false, code: "INTENT_ALREADY_USED", message: "this intent has already been redeemed" };
    const other = paysUsdc(buyer.address, 49_000_000n);
    expect(await claim(intent, tx)).toEqual(used);
    expect(await claim(intent, other)).toEqual(used);
    expect(await redemptionOf(other)).toEqual([]);
  });

  test("behavior: two claims of one intent racing with two payments: one key, the other INTENT_ALREADY_USED", async () => {
    const intent = await intentFor();
    const [a, b] = [paysUsdc(buyer.address, 49_000_000n), paysUsdc(buyer.address, 49_000_000n)];
    // Both claims pass the intent check before either consumes it: the payments are decided together.
    let arrived = 0;
    let release = () => {};
    const together = new Promise<void>((resolve) => {
      release = resolve;
    });
    const gated: PaymentVerifier = {
      async verify(expected, txHash) {
        arrived += 1;
        if (arrived === 2) release();
        await together;
        return recordedPayments.verify(expected, txHash);
      },
    };
    const keys = await keyCount();
    const results = await Promise.all([a, b].map((tx) => claim(intent, tx, { overrides: { payments: gated } })));
    expect(results.map((r) => (r.ok ? r.value.status : r.code)).sort()).toEqual(["INTENT_ALREADY_USED", "ISSUED"]);
    expect(results.find((r) => !r.ok)).toEqual({
      ok: false,
      code: "INTENT_ALREADY_USED",
      message: "this intent has already been redeemed",
    });
    expect(await keyCount()).toBe(keys + 1);
    expect([...(await redemptionOf(a)), ...(await redemptionOf(b))]).toHaveLength(1);
  });

  test("behavior: renewal extends an unexpired key from its expiry with the same secret, and drops the cached keys", async () => {
    const key = await paidKey("STARTER", new Date(t0.getTime() + 10 * dayMs));
    const secretHash = (await storedKey(key.id))?.secretHash;
    const intent = await intentFor({ durationDays: 90, renew: { key } });
    const tx = paysUsdc(buyer.address, 132_300_000n);
    const before = await counters();
    onKeyChanged.mockClear();
    const result = await claim(intent, tx);
    expect(result).toEqual({
      ok: true,
      value: {
        status: "RENEWED",
        apiKey: null,
        keyId: key.id,
        tier: "STARTER",
        wallet: buyer.address,
        issuedAt: key.issuedAt.toISOString(),
        expiresAt: new Date(t0.getTime() + 100 * dayMs).toISOString(),
        entitlements: starterEntitlements,
        payment: { txHash: tx, asset: "USDC", amount: "132300000" },
        notice: renewedNotice,
      },
    });
    expect(onKeyChanged).toHaveBeenCalledTimes(1);
    expect(await storedKey(key.id)).toEqual({ ...key, secretHash, expiresAt: new Date(t0.getTime() + 100 * dayMs) });
    expect(await redemptionOf(tx)).toMatchObject([{ keyId: key.id, intentId: intent.intentId }]);
    const after = await counters();
    expect(after.KEY_RENEWED).toBe((before.KEY_RENEWED ?? 0) + 1);
    expect(after.PAYMENT_SETTLED_USDC).toBe((before.PAYMENT_SETTLED_USDC ?? 0) + 1);
    expect(after.PAID_KEY_ISSUED).toBe(before.PAID_KEY_ISSUED);
  });

  test("behavior: renewal of a key past its expiry extends it from the claim", async () => {
    const key = await paidKey("PRO", new Date(t0.getTime() - dayMs));
    const intent = await intentFor({ tier: "PRO", renew: { key } });
    const claimedAt = new Date(t0.getTime() + 7 * minuteMs);
    const result = await claim(intent, paysUsdc(buyer.address, 999_000_000n), { at: claimedAt });
    expect(result).toMatchObject({
      ok: true,
      value: { status: "RENEWED", apiKey: null, keyId: key.id, expiresAt: new Date(claimedAt.getTime() + 31 * dayMs).toISOString() },
    });
  });

  test("behavior: a renewal target revoked since the intent still gets what was paid for: a new key", async () => {
    const key = await paidKey("STARTER", new Date(t0.getTime() + 10 * dayMs));
    const intent = await intentFor({ renew: { key } });
    await revokeKey(store.db, key.id, new Date(t0.getTime() + minuteMs));
    const tx = paysUsdc(buyer.address, 49_000_000n);
    const before = await counters();
    onKeyChanged.mockClear();
    const result = await claim(intent, tx);
    if (!result.ok) throw new Error(result.code);
    expect(result.value).toMatchObject({
      status: "ISSUED",
      tier: "STARTER",
      issuedAt: "2026-03-10T15:26:30.250Z",
      expiresAt: "2026-04-10T15:26:30.250Z",
      notice: newKeyNotice,
    });
    expect(result.value.keyId).not.toBe(key.id);
    expect(result.value.apiKey).toMatch(/^svc_test_/);
    expect(onKeyChanged).not.toHaveBeenCalled();
    expect(await storedKey(key.id)).toMatchObject({ expiresAt: new Date(t0.getTime() + 10 * dayMs) });
    expect((await counters()).PAID_KEY_ISSUED).toBe((before.PAID_KEY_ISSUED ?? 0) + 1);
  });

  test("error: an intent stored without its frozen terms (tier, duration or amount) is not redeemed: the claim throws", async () => {
    for (const missing of ["tier", "duration_days", "amount_usdc"]) {
      const intent = await intentFor();
      const { $client } = store.db as unknown as { $client: { query(text: string, params: unknown[]): Promise<unknown> } };
      await $client.query(`UPDATE app.intent SET ${missing} = NULL WHERE id = $1`, [intent.intentId]);
      const tx = paysUsdc(buyer.address, 49_000_000n);
      await expect(claim(intent, tx)).rejects.toThrow(`purchase intent ${intent.intentId} has no frozen terms`);
      expect(await redemptionOf(tx)).toEqual([]);
    }
  });

  test("error: a new key whose secret hash is already stored is not issued: the claim throws and nothing is redeemed", async () => {
    const collide = () => "the-same-hash-for-every-secret";
    const first = await intentFor();
    expect(await claim(first, paysUsdc(buyer.address, 49_000_000n), { overrides: { hash: collide } })).toMatchObject({ ok: true });
    const intent = await intentFor();
    const tx = paysUsdc(buyer.address, 49_000_000n);
    await expect(claim(intent, tx, { overrides: { hash: collide } })).rejects.toThrow("a paid key insert returned no row");
    expect(await redemptionOf(tx)).toEqual([]);
    expect(await findIntent(store.db, intent.intentId, "PURCHASE")).toMatchObject({ consumedAt: null });
  });
});
