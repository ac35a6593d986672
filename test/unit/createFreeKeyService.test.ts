import { eq } from "drizzle-orm";
import { createSiweMessage } from "viem/siwe";
import { describe, expect, test } from "vitest";
import { issueChallenge } from "../../api/keys/challenges";
import { type CreateFreeKeyServiceParameters, createFreeKeyService } from "../../api/keys/createFreeKeyService";
import { createWalletVerifier } from "../../api/keys/createWalletVerifier";
import { freeKeyMessage, recoveryMessage } from "../../api/keys/intentMessage";
import { catalogueRates } from "../../api/keys/toIssuedKey";
import type { CounterBucket } from "../../api/store/countDaily";
import { findIntent } from "../../api/store/intentQueries";
import { revokeKey } from "../../api/store/keyQueries";
import { apiKey } from "../../api/store/schema";
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

const clock = settableClock(t0);
const freeStatement = "Claim a free API key of the Base capability service.";
const freeKeyExists = { ok: false, code: "FREE_KEY_EXISTS", message: "this wallet already has its free key (one per wallet)" };

const store = fileAppStore();

/** One free key per wallet: each test signs with wallets of its own (anvil's accounts from 30 on). */
let nextWallet = 30;
const freshWallet = () => anvilAccount(nextWallet++);
type Wallet = ReturnType<typeof freshWallet>;

function service(overrides: Partial<CreateFreeKeyServiceParameters> = {}) {
  return createFreeKeyService({
    ...challengeServiceParameters(store.db, clock.now),
    ...overrides,
  });
}

/** A challenge for `wallet` issued at `at` (t0) through `origin` (the public one). */
async function challengeFor(wallet: Wallet, p: { at?: Date; origin?: string; overrides?: Partial<CreateFreeKeyServiceParameters> } = {}) {
  clock.set(p.at ?? t0);
  const result = await service(p.overrides).challenge(wallet.address, p.origin ?? testOrigins.public);
  if (!result.ok) throw new Error(`challenge refused: ${result.code}`);
  return result.value.intent;
}

/** Claims `intent` signed by `signer` at `at` (a minute after t0). */
async function claim(
  intent: { intentId: string; messageToSign: string },
  signer: Wallet,
  p: { at?: Date; overrides?: Partial<CreateFreeKeyServiceParameters> } = {},
) {
  clock.set(p.at ?? new Date(t0.getTime() + minuteMs));
  const signature = await signer.signMessage({ message: intent.messageToSign });
  return service(p.overrides).claim({ intentId: intent.intentId, signature });
}

const keysOf = (wallet: Wallet) => store.db.select().from(apiKey).where(eq(apiKey.wallet, wallet.address.toLowerCase()));

/** The counters of t0's day in `bucket`, by name. */
const counters = (bucket: CounterBucket = "test") => countersOn(store.db, "2026-03-10", bucket);

describe("createFreeKeyService: challenges", () => {
  test("default: a Sign-In with Ethereum challenge for the wallet, valid 15 minutes, stored as an open FREE intent", async () => {
    const wallet = freshWallet();
    clock.set(t0);
    const result = await service().challenge(wallet.address, testOrigins.public);
    if (!result.ok) throw new Error(result.code);
    const { intentId } = result.value.intent;
    expect(intentId).toMatch(/^int_[0-9a-f]{24}$/);
    const expiresAt = new Date(t0.getTime() + 15 * minuteMs);
    expect(result).toEqual({
      ok: true,
      value: {
        status: "CHALLENGE_ISSUED",
        intent: {
          kind: "FREE_KEY",
          intentId,
          userWallet: wallet.address,
          messageToSign: challengeText({
            origin: testOrigins.public,
            wallet: wallet.address,
            statement: freeStatement,
            intentId,
            issuedAt: t0,
            expiresAt,
          }),
          signatureMethod: "personal_sign",
          createdAt: "2026-03-10T15:20:30.250Z",
          expiresAt: "2026-03-10T15:35:30.250Z",
        },
      },
    });
    expect(await findIntent(store.db, intentId, "FREE")).toEqual({
      id: intentId,
      kind: "FREE",
      wallet: wallet.address.toLowerCase(),
      message: result.value.intent.messageToSign,
      createdAt: t0,
      expiresAt,
      consumedAt: null,
      tier: null,
      durationDays: null,
      amountUsdc: null,
      amountWei: null,
      targetKeyId: null,
      targetSecretVersion: null,
    });
  });

  test("behavior: a challenge asked through the fallback host names it, and is claimed", async () => {
    const wallet = freshWallet();
    const intent = await challengeFor(wallet, { origin: testOrigins.fallback });
    expect(intent.messageToSign).toBe(
      challengeText({
        origin: testOrigins.fallback,
        wallet: wallet.address,
        statement: freeStatement,
        intentId: intent.intentId,
        issuedAt: t0,
        expiresAt: new Date(t0.getTime() + 15 * minuteMs),
      }),
    );
    expect(await claim(intent, wallet)).toMatchObject({ ok: true, value: { status: "ISSUED", tier: "FREE" } });
  });

  test("error: a wallet holding its cap of open intents is TOO_MANY_OPEN_INTENTS, told when the earlier one expires (whole seconds, rounded up); a claimed intent frees its place", async () => {
    const wallet = freshWallet();
    const capped = { maxOpenIntentsPerWallet: 2 };
    const first = await challengeFor(wallet, { overrides: capped });
    await challengeFor(wallet, { at: new Date(t0.getTime() + minuteMs), overrides: capped });
    const refusedAt = new Date(t0.getTime() + 5 * minuteMs + 250);
    clock.set(refusedAt);
    const refusal = {
      ok: false,
      code: "TOO_MANY_OPEN_INTENTS",
      message: "this wallet already holds 2 open intents (each is open 15 minutes unless claimed); claim one, or retry in 600 s",
      details: { retryAfterSeconds: 600 },
    };
    expect(await service(capped).challenge(wallet.address, testOrigins.public)).toEqual(refusal);
    expect(await claim(first, wallet, { at: refusedAt, overrides: capped })).toMatchObject({ ok: true });
    const third = await challengeFor(wallet, { at: refusedAt, overrides: capped });
    expect(third.createdAt).toBe(refusedAt.toISOString());
    clock.set(new Date(t0.getTime() + 10 * minuteMs));
    expect(await service(capped).challenge(wallet.address, testOrigins.public)).toEqual({
      ...refusal,
      message: "this wallet already holds 2 open intents (each is open 15 minutes unless claimed); claim one, or retry in 360 s",
      details: { retryAfterSeconds: 360 },
    });
  });

  test("behavior: issuing a challenge purges unconsumed challenges a day past their expiry and keeps younger ones", async () => {
    const wallet = freshWallet();
    const stale = await challengeFor(wallet, { at: new Date(t0.getTime() - 2 * dayMs) });
    const recent = await challengeFor(wallet, { at: new Date(t0.getTime() - dayMs) });
    await challengeFor(freshWallet());
    expect(await findIntent(store.db, stale.intentId, "FREE")).toBeUndefined();
    expect(await findIntent(store.db, recent.intentId, "FREE")).toMatchObject({ consumedAt: null });
  });
});

describe("createFreeKeyService: claims", () => {
  test("default: the wallet's signature issues its free key: the raw key once, its keyed hash stored, no expiry, counted, the challenge consumed", async () => {
    const wallet = freshWallet();
    const intent = await challengeFor(wallet);
    const before = await counters();
    const claimedAt = new Date(t0.getTime() + 3 * minuteMs);
    const result = await claim(intent, wallet, { at: claimedAt });
    if (!result.ok) throw new Error(`${result.code}: ${result.message}`);
    const { apiKey: raw, keyId } = result.value;
    expect(raw).toMatch(/^svc_test_[1-9A-HJ-NP-Za-km-z]{40,44}$/);
    expect(keyId).toMatch(/^key_[0-9a-f]{24}$/);
    expect(result).toEqual({
      ok: true,
      value: {
        status: "ISSUED",
        apiKey: raw,
        keyId,
        tier: "FREE",
        wallet: wallet.address,
        issuedAt: "2026-03-10T15:23:30.250Z",
        expiresAt: null,
        entitlements: { creditsPerCycle: 300, cycleDays: 31, dailyLimit: 10, rateLimitPerMinute: 30 },
        payment: null,
        notice: newKeyNotice,
      },
    });
    expect(await keysOf(wallet)).toEqual([
      {
        id: keyId,
        secretHash: testKeyHasher(raw as string),
        secretVersion: 1,
        tier: "FREE",
        wallet: wallet.address.toLowerCase(),
        issuedAt: claimedAt,
        expiresAt: null,
        cycleAnchor: claimedAt,
        revokedAt: null,
      },
    ]);
    expect(await findIntent(store.db, intent.intentId, "FREE")).toMatchObject({ consumedAt: claimedAt });
    expect((await counters()).FREE_KEY_ISSUED).toBe((before.FREE_KEY_ISSUED ?? 0) + 1);
  });

  test("behavior: a live deployment issues a svc_live_ key, counted in the production bucket, with the per-minute limit in force", async () => {
    const wallet = freshWallet();
    const intent = await challengeFor(wallet);
    const [testBefore, liveBefore] = [await counters("test"), await counters("production")];
    const live = { environment: "live", rates: { ...catalogueRates, FREE: 45 } } as const;
    const result = await claim(intent, wallet, { overrides: live });
    if (!result.ok) throw new Error(result.code);
    expect(result.value.apiKey).toMatch(/^svc_live_/);
    expect(result.value.entitlements).toEqual({ creditsPerCycle: 300, cycleDays: 31, dailyLimit: 10, rateLimitPerMinute: 45 });
    expect(await counters("test")).toEqual(testBefore);
    expect((await counters("production")).FREE_KEY_ISSUED).toBe((liveBefore.FREE_KEY_ISSUED ?? 0) + 1);
  });

  test("error: one free key per wallet, ever: a further challenge is issued, its claim is FREE_KEY_EXISTS and rolled back, also once the key is revoked", async () => {
    const wallet = freshWallet();
    const issued = await claim(await challengeFor(wallet), wallet);
    if (!issued.ok) throw new Error(issued.code);
    for (const revoked of [false, true]) {
      if (revoked) await revokeKey(store.db, issued.value.keyId, new Date(t0.getTime() + 2 * minuteMs));
      const again = await challengeFor(wallet);
      const before = await counters();
      expect(await claim(again, wallet)).toEqual(freeKeyExists);
      expect(await findIntent(store.db, again.intentId, "FREE")).toMatchObject({ consumedAt: null });
      expect(await counters()).toEqual(before);
      expect((await keysOf(wallet)).map((k) => k.id)).toEqual([issued.value.keyId]);
    }
  });

  test("error: a claimed challenge replayed is FREE_KEY_EXISTS, with the same signature or a new one, after its expiry, or signed by another wallet", async () => {
    const [wallet, other] = [freshWallet(), freshWallet()];
    const intent = await challengeFor(wallet);
    clock.set(new Date(t0.getTime() + minuteMs));
    const signature = await wallet.signMessage({ message: intent.messageToSign });
    expect(await service().claim({ intentId: intent.intentId, signature })).toMatchObject({ ok: true });
    expect(await service().claim({ intentId: intent.intentId, signature })).toEqual(freeKeyExists);
    expect(await claim(intent, wallet, { at: new Date(t0.getTime() + 2 * minuteMs) })).toEqual(freeKeyExists);
    // Being consumed is the first thing a claim is told: before the expiry and the signer are looked at.
    expect(await claim(intent, wallet, { at: new Date(t0.getTime() + dayMs) })).toEqual(freeKeyExists);
    expect(await claim(intent, other)).toEqual(freeKeyExists);
    expect(await keysOf(wallet)).toHaveLength(1);
    expect(await keysOf(other)).toEqual([]);
  });

  test("behavior: two claims of one challenge racing: one key, the other FREE_KEY_EXISTS", async () => {
    const wallet = freshWallet();
    const intent = await challengeFor(wallet);
    clock.set(new Date(t0.getTime() + minuteMs));
    const signature = await wallet.signMessage({ message: intent.messageToSign });
    const results = await Promise.all([1, 2].map(() => service().claim({ intentId: intent.intentId, signature })));
    expect(results.map((r) => (r.ok ? r.value.status : r.code)).sort()).toEqual(["FREE_KEY_EXISTS", "ISSUED"]);
    expect(await keysOf(wallet)).toHaveLength(1);
  });

  test("error: a signature by another wallet, or over another text, is SIGNATURE_INVALID and consumes nothing; the wallet's own then claims", async () => {
    const [wallet, other] = [freshWallet(), freshWallet()];
    const intent = await challengeFor(wallet);
    const invalid = {
      ok: false,
      code: "SIGNATURE_INVALID",
      message: "the signature is not the intent wallet's personal_sign of messageToSign",
    };
    expect(await claim(intent, other)).toEqual(invalid);
    expect(await claim({ ...intent, messageToSign: `${intent.messageToSign}.` }, wallet)).toEqual(invalid);
    expect(await findIntent(store.db, intent.intentId, "FREE")).toMatchObject({ consumedAt: null });
    expect(await keysOf(wallet)).toEqual([]);
    expect(await keysOf(other)).toEqual([]);
    expect(await claim(intent, wallet)).toMatchObject({ ok: true, value: { wallet: wallet.address } });
  });

  test("behavior: the real wallet verifier settles the wallet's signature with no provider; another's, which it must ask the chain about, is DATA_SOURCE_UNAVAILABLE", async () => {
    const wallets = createWalletVerifier({ providers: [], chainId: 8453 });
    const [wallet, other] = [freshWallet(), freshWallet()];
    const intent = await challengeFor(wallet);
    expect(await claim(intent, other, { overrides: { wallets } })).toEqual({
      ok: false,
      code: "DATA_SOURCE_UNAVAILABLE",
      message: "the signature cannot be checked at evidence grade now (NO_PROVIDER_ANSWERED); retry later",
    });
    expect(await claim(intent, wallet, { overrides: { wallets } })).toMatchObject({ ok: true, value: { status: "ISSUED" } });
  });

  test("error: a challenge claimed at its expiry is INTENT_EXPIRED; a millisecond before, it is claimed", async () => {
    const [late, onTime] = [freshWallet(), freshWallet()];
    const expiry = new Date(t0.getTime() + 15 * minuteMs);
    const lateIntent = await challengeFor(late);
    expect(await claim(lateIntent, late, { at: expiry })).toEqual({
      ok: false,
      code: "INTENT_EXPIRED",
      message: "the intent expired (15 minutes); request a new one",
    });
    expect(await findIntent(store.db, lateIntent.intentId, "FREE")).toMatchObject({ consumedAt: null });
    expect(await claim(await challengeFor(onTime), onTime, { at: new Date(expiry.getTime() - 1) })).toMatchObject({ ok: true });
  });

  test("error: an unknown intent, or a recovery challenge, is INTENT_NOT_FOUND", async () => {
    const wallet = freshWallet();
    const notFound = { ok: false, code: "INTENT_NOT_FOUND", message: "no intent of this kind has this intentId" };
    clock.set(t0);
    const signature = await wallet.signMessage({ message: "anything" });
    expect(await service().claim({ intentId: "int_0123456789abcdef01234567", signature })).toEqual(notFound);
    const recovery = await issueChallenge(store.db, {
      kind: "RECOVERY",
      origin: testOrigins.public,
      wallet: wallet.address,
      now: t0,
      message: recoveryMessage,
      maxOpen: 1e6,
    });
    if (!recovery.ok) throw new Error(recovery.code);
    expect(await claim(recovery.value, wallet)).toEqual(notFound);
    expect(await keysOf(wallet)).toEqual([]);
  });

  test("error: a challenge naming another origin, another chain, or no origin at all is CHALLENGE_ORIGIN_MISMATCH", async () => {
    const wallet = freshWallet();
    const otherChain = (f: Parameters<typeof freeKeyMessage>[0]) =>
      createSiweMessage({
        domain: "127.0.0.1:42069",
        uri: testOrigins.public,
        address: wallet.address,
        version: "1",
        chainId: 1,
        nonce: f.intentId.slice(4),
        issuedAt: f.createdAt,
      });
    const messages = [
      (f: Parameters<typeof freeKeyMessage>[0]) => freeKeyMessage({ ...f, origin: "https://relay.example" }),
      otherChain,
      () => "Claim a free API key of the Base capability service.",
    ];
    for (const message of messages) {
      const issued = await issueChallenge(store.db, {
        kind: "FREE",
        origin: testOrigins.public,
        wallet: wallet.address,
        now: t0,
        message,
        maxOpen: 1e6,
      });
      if (!issued.ok) throw new Error(issued.code);
      expect(await claim(issued.value, wallet)).toEqual({
        ok: false,
        code: "CHALLENGE_ORIGIN_MISMATCH",
        message: "the challenge names an origin or chain this service does not serve; request a new one",
      });
    }
    expect(await keysOf(wallet)).toEqual([]);
  });
});
