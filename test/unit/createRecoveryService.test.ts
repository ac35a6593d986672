import { eq } from "drizzle-orm";
import { type Hex, keccak256, stringToHex } from "viem";
import { describe, expect, test, vi } from "vitest";
import { createCreditService } from "../../api/access/createCreditService";
import { issueChallenge } from "../../api/keys/challenges";
import { createKeyCache } from "../../api/keys/createKeyCache";
import { createKeyService } from "../../api/keys/createKeyService";
import { type CreateRecoveryServiceParameters, createRecoveryService, type RecoveryChallenge } from "../../api/keys/createRecoveryService";
import { freeKeyMessage } from "../../api/keys/intentMessage";
import { mintKeySecret } from "../../api/keys/mintKeySecret";
import type { Tier } from "../../api/keys/planCatalogue";
import { catalogueRates } from "../../api/keys/toIssuedKey";
import type { CounterBucket } from "../../api/store/countDaily";
import { findIntent } from "../../api/store/intentQueries";
import { insertKey, revokeKey } from "../../api/store/keyQueries";
import { apiKey, redemption } from "../../api/store/schema";
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
const recoveryStatement = "Recover the paid API key of this wallet (its current secret is revoked and replaced).";
const noRecoverableKey = {
  ok: false,
  code: "NO_RECOVERABLE_KEY",
  message: "this wallet holds no paid key to recover (free and revoked keys cannot be recovered)",
};
const targetChanged = {
  ok: false,
  code: "RECOVERY_TARGET_CHANGED",
  message: "the key changed since the challenge (recovered or revoked); request a new challenge",
};

const store = fileAppStore();

/** Each test signs with wallets of its own (anvil's accounts from 60 on). */
let nextWallet = 60;
const freshWallet = () => anvilAccount(nextWallet++);
type Wallet = ReturnType<typeof freshWallet>;

const onKeyChanged = vi.fn<() => void>();

function service(overrides: Partial<CreateRecoveryServiceParameters> = {}) {
  return createRecoveryService({
    ...challengeServiceParameters(store.db, clock.now),
    onKeyChanged,
    ...overrides,
  });
}

/** The key service as the API authenticates with it: every lookup reads the store. */
const keys = () =>
  createKeyService({
    db: store.db,
    hash: testKeyHasher,
    cache: createKeyCache({ db: store.db, maxStalenessMs: 0 }),
    credits: createCreditService({ db: store.db, clock: clock.now }),
    clock: clock.now,
    rates: catalogueRates,
    environment: "test",
  });

let serial = 0;

/** A key of `wallet` with a raw secret of its own, issued 20 days before t0 and expiring at `expiresAt` (30 days after t0). */
async function keyOf(wallet: Wallet, tier: Tier, p: { expiresAt?: Date | null; issuedAt?: Date } = {}) {
  const secret = mintKeySecret(testKeyHasher, "test");
  serial += 1;
  const issuedAt = p.issuedAt ?? new Date(t0.getTime() - 20 * dayMs);
  const row = await insertKey(store.db, {
    id: `key_${serial.toString(16).padStart(24, "0")}`,
    secretHash: secret.hash,
    tier,
    wallet: wallet.address.toLowerCase(),
    issuedAt,
    expiresAt: p.expiresAt === undefined ? new Date(t0.getTime() + 30 * dayMs) : p.expiresAt,
    cycleAnchor: issuedAt,
  });
  if (!row) throw new Error("key not inserted");
  return { row, raw: secret.raw };
}

/** Records `txHash` as the payment that created or renewed `keyId` (lowercase, as purchases record it). */
async function paidFor(keyId: string): Promise<Hex> {
  serial += 1;
  const txHash = keccak256(stringToHex(`recovery test tx ${serial}`));
  await store.db.insert(redemption).values({
    txHash,
    intentId: `int_${serial.toString(16).padStart(24, "0")}`,
    keyId,
    asset: "USDC",
    amount: 49_000_000n,
    redeemedAt: t0,
  });
  return txHash;
}

/** A recovery challenge for `wallet` (for the key `txHash` paid for, if given) issued at `at` (t0). */
async function challengeFor(wallet: Wallet, p: { txHash?: Hex; at?: Date; overrides?: Partial<CreateRecoveryServiceParameters> } = {}) {
  clock.set(p.at ?? t0);
  const result = await service(p.overrides).challenge({ wallet: wallet.address, txHash: p.txHash ?? null, origin: testOrigins.public });
  if (!result.ok) throw new Error(`challenge refused: ${result.code}`);
  return result.value.intent;
}

/** Claims `intent` signed by `signer` at `at` (a minute after t0). */
async function claim(
  intent: { intentId: string; messageToSign: string },
  signer: Wallet,
  p: { at?: Date; overrides?: Partial<CreateRecoveryServiceParameters> } = {},
) {
  clock.set(p.at ?? new Date(t0.getTime() + minuteMs));
  const signature = await signer.signMessage({ message: intent.messageToSign });
  return service(p.overrides).claim({ intentId: intent.intentId, signature });
}

const storedKey = async (id: string) => (await store.db.select().from(apiKey).where(eq(apiKey.id, id)))[0];

/** The counters of t0's day in `bucket`, by name. */
const counters = (bucket: CounterBucket = "test") => countersOn(store.db, "2026-03-10", bucket);

describe("createRecoveryService: challenges", () => {
  test("behavior: a wallet with a paid key and a wallet without get the same challenge (key by key), from the same insert: only the stored target differs", async () => {
    const [known, unknown] = [freshWallet(), freshWallet()];
    const { row: target } = await keyOf(known, "GROWTH");
    clock.set(t0);
    const ask = (wallet: Wallet) => service().challenge({ wallet: wallet.address, txHash: null, origin: testOrigins.public });
    const answers = [await ask(known), await ask(unknown)];
    const [real, decoy] = answers.map((answer) => {
      if (!answer.ok) throw new Error(answer.code);
      return answer.value.intent;
    }) as [RecoveryChallenge["intent"], RecoveryChallenge["intent"]];
    const expiresAt = new Date(t0.getTime() + 15 * minuteMs);
    for (const [wallet, intent, answer] of [
      [known, real, answers[0]],
      [unknown, decoy, answers[1]],
    ] as const) {
      expect(intent.intentId).toMatch(/^int_[0-9a-f]{24}$/);
      expect(answer).toEqual({
        ok: true,
        value: {
          status: "CHALLENGE_ISSUED",
          intent: {
            kind: "RECOVERY",
            intentId: intent.intentId,
            userWallet: wallet.address,
            messageToSign: challengeText({
              origin: testOrigins.public,
              wallet: wallet.address,
              statement: recoveryStatement,
              intentId: intent.intentId,
              issuedAt: t0,
              expiresAt,
            }),
            signatureMethod: "personal_sign",
            createdAt: "2026-03-10T15:20:30.250Z",
            expiresAt: "2026-03-10T15:35:30.250Z",
          },
        },
      });
    }
    // The same keys in the same order: a serialized answer differs only in the wallet, the intent id and its nonce.
    expect(Object.keys(decoy)).toEqual(Object.keys(real));
    const row = (wallet: Wallet, intent: typeof real) => ({
      id: intent.intentId,
      kind: "RECOVERY",
      wallet: wallet.address.toLowerCase(),
      message: intent.messageToSign,
      createdAt: t0,
      expiresAt,
      consumedAt: null,
      tier: null,
      durationDays: null,
      amountUsdc: null,
      amountWei: null,
    });
    expect(await findIntent(store.db, real.intentId, "RECOVERY")).toEqual({
      ...row(known, real),
      targetKeyId: target.id,
      targetSecretVersion: 1,
    });
    expect(await findIntent(store.db, decoy.intentId, "RECOVERY")).toEqual({
      ...row(unknown, decoy),
      targetKeyId: null,
      targetSecretVersion: null,
    });
  });

  test("error: known and unknown wallets alike are held to the cap on open intents (TOO_MANY_OPEN_INTENTS)", async () => {
    const [known, unknown] = [freshWallet(), freshWallet()];
    await keyOf(known, "PRO");
    const capped = { maxOpenIntentsPerWallet: 1 };
    for (const wallet of [known, unknown]) {
      await challengeFor(wallet, { overrides: capped });
      clock.set(new Date(t0.getTime() + 5 * minuteMs));
      expect(await service(capped).challenge({ wallet: wallet.address, txHash: null, origin: testOrigins.public })).toEqual({
        ok: false,
        code: "TOO_MANY_OPEN_INTENTS",
        message: "this wallet already holds 1 open intents (each is open 15 minutes unless claimed); claim one, or retry in 600 s",
        details: { retryAfterSeconds: 600 },
      });
    }
  });
});

describe("createRecoveryService: claims", () => {
  test("default: the claim replaces the secret: the new raw key once, tier, issuance, expiry and cycle kept, the old secret refused, counted, the cache dropped", async () => {
    const wallet = freshWallet();
    const { row: target, raw: oldRaw } = await keyOf(wallet, "STARTER");
    const intent = await challengeFor(wallet);
    const before = await counters();
    onKeyChanged.mockClear();
    const claimedAt = new Date(t0.getTime() + 2 * minuteMs);
    const result = await claim(intent, wallet, { at: claimedAt });
    if (!result.ok) throw new Error(`${result.code}: ${result.message}`);
    const raw = result.value.apiKey as string;
    expect(raw).toMatch(/^svc_test_[1-9A-HJ-NP-Za-km-z]{40,44}$/);
    expect(raw).not.toBe(oldRaw);
    expect(result).toEqual({
      ok: true,
      value: {
        status: "REPLACED",
        apiKey: raw,
        keyId: target.id,
        tier: "STARTER",
        wallet: wallet.address,
        issuedAt: target.issuedAt.toISOString(),
        expiresAt: (target.expiresAt as Date).toISOString(),
        entitlements: { creditsPerCycle: 10_000, cycleDays: 31, dailyLimit: null, rateLimitPerMinute: 120 },
        payment: null,
        notice: newKeyNotice,
      },
    });
    expect(await storedKey(target.id)).toEqual({ ...target, secretHash: testKeyHasher(raw), secretVersion: 2 });
    expect(await keys().authenticate(oldRaw)).toEqual({ ok: false, reason: "INVALID" });
    expect(await keys().authenticate(raw)).toMatchObject({ ok: true, key: { id: target.id, tier: "STARTER" }, expired: false });
    expect(await findIntent(store.db, intent.intentId, "RECOVERY")).toMatchObject({ consumedAt: claimedAt });
    expect((await counters()).KEY_RECOVERED).toBe((before.KEY_RECOVERED ?? 0) + 1);
    expect(onKeyChanged).toHaveBeenCalledTimes(1);
  });

  test("behavior: a live deployment replaces with a svc_live_ key, counted in the production bucket, with the per-minute limit in force", async () => {
    const wallet = freshWallet();
    await keyOf(wallet, "PRO");
    const intent = await challengeFor(wallet);
    const [testBefore, liveBefore] = [await counters("test"), await counters("production")];
    const result = await claim(intent, wallet, { overrides: { environment: "live", rates: { ...catalogueRates, PRO: 600_000 } } });
    if (!result.ok) throw new Error(result.code);
    expect(result.value.apiKey).toMatch(/^svc_live_/);
    expect(result.value.entitlements).toEqual({ creditsPerCycle: 500_000, cycleDays: 31, dailyLimit: null, rateLimitPerMinute: 600_000 });
    expect(await counters("test")).toEqual(testBefore);
    expect((await counters("production")).KEY_RECOVERED).toBe((liveBefore.KEY_RECOVERED ?? 0) + 1);
  });

  test("error: a claimed challenge is RECOVERY_CHALLENGE_CONSUMED (even past its expiry), and the secret it issued stands", async () => {
    const wallet = freshWallet();
    const { row: target } = await keyOf(wallet, "GROWTH");
    const intent = await challengeFor(wallet);
    const first = await claim(intent, wallet);
    if (!first.ok) throw new Error(first.code);
    const after = await storedKey(target.id);
    onKeyChanged.mockClear();
    const consumed = {
      ok: false,
      code: "RECOVERY_CHALLENGE_CONSUMED",
      message: "this recovery challenge was already used; request a new one",
    };
    expect(await claim(intent, wallet, { at: new Date(t0.getTime() + 2 * minuteMs) })).toEqual(consumed);
    // Told before the expiry is looked at.
    expect(await claim(intent, wallet, { at: new Date(t0.getTime() + dayMs) })).toEqual(consumed);
    expect(await storedKey(target.id)).toEqual(after);
    expect(onKeyChanged).not.toHaveBeenCalled();
    expect(await keys().authenticate(first.value.apiKey as string)).toMatchObject({ ok: true });
  });

  test("error: a wrong signer is SIGNATURE_INVALID, a claim at the challenge's expiry INTENT_EXPIRED: the secret unchanged, the challenge still open", async () => {
    const [wallet, other] = [freshWallet(), freshWallet()];
    const { row: target, raw } = await keyOf(wallet, "STARTER");
    const intent = await challengeFor(wallet);
    expect(await claim(intent, other)).toEqual({
      ok: false,
      code: "SIGNATURE_INVALID",
      message: "the signature is not the intent wallet's personal_sign of messageToSign",
    });
    expect(await claim(intent, wallet, { at: new Date(t0.getTime() + 15 * minuteMs) })).toEqual({
      ok: false,
      code: "INTENT_EXPIRED",
      message: "the intent expired (15 minutes); request a new one",
    });
    expect(await storedKey(target.id)).toEqual(target);
    expect(await keys().authenticate(raw)).toMatchObject({ ok: true, key: { id: target.id } });
    expect(await findIntent(store.db, intent.intentId, "RECOVERY")).toMatchObject({ consumedAt: null });
  });

  test("error: a decoy's claim is NO_RECOVERABLE_KEY only to the wallet's own signature (another's is SIGNATURE_INVALID); nothing is consumed or counted", async () => {
    const [unknown, other] = [freshWallet(), freshWallet()];
    const decoy = await challengeFor(unknown);
    const before = await counters();
    expect(await claim(decoy, other)).toMatchObject({ ok: false, code: "SIGNATURE_INVALID" });
    expect(await claim(decoy, unknown)).toEqual(noRecoverableKey);
    expect(await findIntent(store.db, decoy.intentId, "RECOVERY")).toMatchObject({ consumedAt: null });
    expect(await counters()).toEqual(before);
  });

  test("behavior: the target is the wallet's unrevoked paid key expiring last, expired or not; free and revoked keys are never targets", async () => {
    const wallet = freshWallet();
    await keyOf(wallet, "FREE", { expiresAt: null });
    const { row: expired } = await keyOf(wallet, "STARTER", { expiresAt: new Date(t0.getTime() - dayMs) });
    const { row: revoked } = await keyOf(wallet, "PRO", { expiresAt: new Date(t0.getTime() + 300 * dayMs) });
    await revokeKey(store.db, revoked.id, t0);
    const replace = async () => {
      const result = await claim(await challengeFor(wallet), wallet);
      return result.ok ? { keyId: result.value.keyId, expiresAt: result.value.expiresAt } : result;
    };
    // A paid key past its expiry is still "active" for recovery: its expiry is kept.
    expect(await replace()).toEqual({ keyId: expired.id, expiresAt: (expired.expiresAt as Date).toISOString() });
    const { row: later } = await keyOf(wallet, "GROWTH", { expiresAt: new Date(t0.getTime() + 40 * dayMs) });
    expect(await replace()).toEqual({ keyId: later.id, expiresAt: (later.expiresAt as Date).toISOString() });
    await revokeKey(store.db, later.id, t0);
    await revokeKey(store.db, expired.id, t0);
    // Left: the free key and revoked keys.
    expect(await replace()).toEqual(noRecoverableKey);
  });

  test("behavior: a txHash targets the key that payment paid for (however it is written); another's payment, or an unknown one, gets a decoy", async () => {
    const [wallet, other] = [freshWallet(), freshWallet()];
    const { row: older } = await keyOf(wallet, "STARTER", { expiresAt: new Date(t0.getTime() + 5 * dayMs) });
    await keyOf(wallet, "STARTER", { expiresAt: new Date(t0.getTime() + 50 * dayMs) });
    const { row: theirs } = await keyOf(other, "PRO");
    const olderTx = await paidFor(older.id);
    const upper = `0x${olderTx.slice(2).toUpperCase()}` as Hex;
    const intent = await challengeFor(wallet, { txHash: upper });
    expect(await findIntent(store.db, intent.intentId, "RECOVERY")).toMatchObject({ targetKeyId: older.id, targetSecretVersion: 1 });
    expect(await claim(intent, wallet)).toMatchObject({ ok: true, value: { keyId: older.id } });
    const unknownTx = keccak256(stringToHex("a payment never redeemed"));
    for (const txHash of [await paidFor(theirs.id), unknownTx]) {
      const decoy = await challengeFor(wallet, { txHash });
      expect(await findIntent(store.db, decoy.intentId, "RECOVERY")).toMatchObject({ targetKeyId: null, targetSecretVersion: null });
      expect(await claim(decoy, wallet)).toEqual(noRecoverableKey);
    }
  });

  test("error: a target revoked or recovered since the challenge is RECOVERY_TARGET_CHANGED, rolled back: the challenge open, nothing counted, the cache kept", async () => {
    const wallet = freshWallet();
    const { row: target } = await keyOf(wallet, "GROWTH");
    const [first, second] = [await challengeFor(wallet), await challengeFor(wallet)];
    expect(await claim(first, wallet)).toMatchObject({ ok: true, value: { keyId: target.id } });
    const before = await counters();
    onKeyChanged.mockClear();
    expect(await claim(second, wallet)).toEqual(targetChanged);
    const revokedWallet = freshWallet();
    const { row: revoked } = await keyOf(revokedWallet, "PRO");
    const pending = await challengeFor(revokedWallet);
    await revokeKey(store.db, revoked.id, t0);
    expect(await claim(pending, revokedWallet)).toEqual(targetChanged);
    for (const intent of [second, pending]) {
      expect(await findIntent(store.db, intent.intentId, "RECOVERY")).toMatchObject({ consumedAt: null });
    }
    expect(await counters()).toEqual(before);
    expect(onKeyChanged).not.toHaveBeenCalled();
    expect(await storedKey(revoked.id)).toMatchObject({ secretVersion: 1, secretHash: revoked.secretHash });
  });

  test("error: a free-key challenge is not a recovery challenge (INTENT_NOT_FOUND); one naming another origin is CHALLENGE_ORIGIN_MISMATCH", async () => {
    const wallet = freshWallet();
    await keyOf(wallet, "STARTER");
    const free = await issueChallenge(store.db, {
      kind: "FREE",
      origin: testOrigins.public,
      wallet: wallet.address,
      now: t0,
      message: freeKeyMessage,
      maxOpen: 1e6,
    });
    if (!free.ok) throw new Error(free.code);
    expect(await claim(free.value, wallet)).toEqual({
      ok: false,
      code: "INTENT_NOT_FOUND",
      message: "no intent of this kind has this intentId",
    });
    clock.set(t0);
    const relayed = await service().challenge({ wallet: wallet.address, txHash: null, origin: "https://relay.example" });
    if (!relayed.ok) throw new Error(relayed.code);
    expect(await claim(relayed.value.intent, wallet)).toMatchObject({ ok: false, code: "CHALLENGE_ORIGIN_MISMATCH" });
  });
});
