import { eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { createCreditService } from "../../api/access/createCreditService";
import { createKeyCache } from "../../api/keys/createKeyCache";
import { type CreateKeyServiceParameters, createKeyService } from "../../api/keys/createKeyService";
import { createRecoveryService } from "../../api/keys/createRecoveryService";
import { mintKeySecret } from "../../api/keys/mintKeySecret";
import type { Tier } from "../../api/keys/planCatalogue";
import { catalogueRates } from "../../api/keys/toIssuedKey";
import type { CounterBucket } from "../../api/store/countDaily";
import { insertKey } from "../../api/store/keyQueries";
import { apiKey } from "../../api/store/schema";
import { fileAppStore } from "../support/fileAppStore";
import {
  anvilAccount,
  challengeServiceParameters,
  countersOn,
  dayMs,
  minuteMs,
  settableClock,
  t0,
  testKeyHasher,
  testOrigins,
} from "../support/keyClaims";

const clock = settableClock(t0);

const store = fileAppStore();

/**
 * The key service over a cache that keeps keys until dropped (its clock stands still, so the epoch is
 * never read again): a change this service makes is seen at once only if it drops the cache.
 */
function service(overrides: Partial<CreateKeyServiceParameters> = {}) {
  return createKeyService({
    db: store.db,
    hash: testKeyHasher,
    cache: createKeyCache({ db: store.db, maxStalenessMs: 60_000, now: () => 1 }),
    credits: createCreditService({ db: store.db, clock: clock.now }),
    clock: clock.now,
    rates: catalogueRates,
    environment: "test",
    ...overrides,
  });
}

let serial = 0;

/** A key of `tier` with a raw secret of its own, issued at t0: paid keys expire 31 days later, free keys never. */
async function keyOf(tier: Tier, p: { raw?: string; wallet?: string } = {}) {
  const secret = p.raw === undefined ? mintKeySecret(testKeyHasher, "test") : { raw: p.raw, hash: testKeyHasher(p.raw) };
  serial += 1;
  const row = await insertKey(store.db, {
    id: `key_${serial.toString(16).padStart(24, "0")}`,
    secretHash: secret.hash,
    tier,
    wallet: p.wallet ?? `0x${serial.toString(16).padStart(40, "a")}`,
    issuedAt: t0,
    expiresAt: tier === "FREE" ? null : new Date(t0.getTime() + 31 * dayMs),
    cycleAnchor: t0,
  });
  if (!row) throw new Error("key not inserted");
  const { secretHash: _, ...info } = row;
  return { info, raw: secret.raw };
}

const storedKey = async (id: string) => (await store.db.select().from(apiKey).where(eq(apiKey.id, id)))[0];

/** The counters of t0's day in `bucket`, by name. */
const counters = (bucket: CounterBucket = "test") => countersOn(store.db, "2026-03-10", bucket);

describe("createKeyService: authenticate", () => {
  test("default: a raw key is found by its keyed hash: the key without its hash, not expired", async () => {
    const { info, raw } = await keyOf("STARTER");
    clock.set(t0);
    const found = await service().authenticate(raw);
    expect(found).toEqual({ ok: true, key: info, expired: false });
    expect(found.ok && "secretHash" in found.key).toBe(false);
  });

  test("error: an unknown key, and a secret not shaped like a key (even one whose hash is stored), are INVALID", async () => {
    const { raw } = await keyOf("PRO");
    const { raw: misshapen } = await keyOf("PRO", { raw: "svc_test_short" });
    const unknown = mintKeySecret(testKeyHasher, "test").raw;
    const keys = service();
    for (const secret of [unknown, misshapen, `${raw} `, raw.replace("svc_test_", "svc_prod_")]) {
      expect(await keys.authenticate(secret), secret).toEqual({ ok: false, reason: "INVALID" });
    }
    expect(await keys.authenticate(raw)).toMatchObject({ ok: true });
  });

  test("error: a paid key is expired from the instant of its expiry (a millisecond before, it is not); a free key never expires", async () => {
    const { info: paid, raw } = await keyOf("GROWTH");
    const { raw: free } = await keyOf("FREE");
    const expiry = (paid.expiresAt as Date).getTime();
    const keys = service();
    for (const [at, expired] of [
      [expiry - 1, false],
      [expiry, true],
      [expiry + 400 * dayMs, true],
    ] as const) {
      clock.set(at);
      expect(await keys.authenticate(raw)).toEqual({ ok: true, key: paid, expired });
      expect(await keys.authenticate(free)).toMatchObject({ ok: true, expired: false });
    }
  });
});

describe("createKeyService: describe", () => {
  test("default: KeySelf of an active paid key: checksummed wallet, its entitlements and credit balance, never its secret", async () => {
    const wallet = anvilAccount(0).address;
    const { info } = await keyOf("STARTER", { wallet: wallet.toLowerCase() });
    clock.set(t0.getTime() + dayMs);
    expect(await service().describe(info)).toEqual({
      keyId: info.id,
      status: "ACTIVE",
      tier: "STARTER",
      wallet,
      issuedAt: "2026-03-10T15:20:30.250Z",
      expiresAt: "2026-04-10T15:20:30.250Z",
      entitlements: { creditsPerCycle: 10_000, cycleDays: 31, dailyLimit: null, rateLimitPerMinute: 120 },
      credits: {
        cycleStartedAt: "2026-03-10T15:20:30.250Z",
        cycleEndsAt: "2026-04-10T15:20:30.250Z",
        allowance: 10_000,
        used: 0,
        remaining: 10_000,
        daily: null,
      },
    });
  });

  test("behavior: a paid key is EXPIRED from its expiry on; a free key has no expiry, a daily limit, and the per-minute limit in force", async () => {
    const { info: paid } = await keyOf("PRO");
    const { info: free } = await keyOf("FREE");
    const keys = service({ rates: { ...catalogueRates, FREE: 45, PRO: 600_000 } });
    const expiry = paid.expiresAt as Date;
    clock.set(expiry.getTime() - 1);
    expect(await keys.describe(paid)).toMatchObject({ status: "ACTIVE", entitlements: { rateLimitPerMinute: 600_000 } });
    clock.set(expiry);
    expect(await keys.describe(paid)).toMatchObject({ status: "EXPIRED", expiresAt: expiry.toISOString() });
    expect(await keys.describe(free)).toMatchObject({
      status: "ACTIVE",
      tier: "FREE",
      expiresAt: null,
      entitlements: { creditsPerCycle: 300, cycleDays: 31, dailyLimit: 10, rateLimitPerMinute: 45 },
      credits: { allowance: 300, daily: { limit: 10, used: 0, remaining: 10, resetsAt: "2026-04-11T00:00:00.000Z" } },
    });
  });
});

describe("createKeyService: revoke", () => {
  test("default: the key is revoked at once (this replica's cache dropped): REVOKED from then on, its revocation time recorded and counted", async () => {
    const { info, raw } = await keyOf("STARTER");
    const keys = service();
    clock.set(t0);
    expect(await keys.authenticate(raw)).toMatchObject({ ok: true });
    const before = await counters();
    const revokedAt = new Date(t0.getTime() + 5 * minuteMs);
    clock.set(revokedAt);
    expect(await keys.revoke(info)).toEqual({
      status: "REVOKED",
      message: `API key ${info.id} is revoked permanently; it can no longer be used or recovered.`,
      revokedAt: "2026-03-10T15:25:30.250Z",
    });
    expect(await storedKey(info.id)).toMatchObject({ revokedAt });
    expect(await keys.authenticate(raw)).toEqual({ ok: false, reason: "REVOKED" });
    expect((await counters()).KEY_REVOKED).toBe((before.KEY_REVOKED ?? 0) + 1);
  });

  test("behavior: revocation is permanent and recorded once: a second revocation keeps and answers the first time, and counts nothing", async () => {
    const { info, raw } = await keyOf("FREE");
    const keys = service();
    const first = new Date(t0.getTime() + minuteMs);
    clock.set(first);
    await keys.revoke(info);
    const before = await counters();
    clock.set(t0.getTime() + 10 * minuteMs);
    expect(await keys.revoke(info)).toMatchObject({ status: "REVOKED", revokedAt: first.toISOString() });
    expect(await storedKey(info.id)).toMatchObject({ revokedAt: first });
    expect(await counters()).toEqual(before);
    clock.set(t0.getTime() + 400 * dayMs);
    expect(await keys.authenticate(raw)).toEqual({ ok: false, reason: "REVOKED" });
  });

  test("behavior: a live deployment counts its revocations in the production bucket", async () => {
    const { info } = await keyOf("GROWTH");
    const [testBefore, liveBefore] = [await counters("test"), await counters("production")];
    clock.set(t0);
    await service({ environment: "live" }).revoke(info);
    expect(await counters("test")).toEqual(testBefore);
    expect((await counters("production")).KEY_REVOKED).toBe((liveBefore.KEY_REVOKED ?? 0) + 1);
  });

  test("error: a revoked paid key cannot be recovered: its wallet's recovery challenge is a decoy (NO_RECOVERABLE_KEY)", async () => {
    const wallet = anvilAccount(1);
    const { info } = await keyOf("PRO", { wallet: wallet.address.toLowerCase() });
    clock.set(t0);
    await service().revoke(info);
    const recovery = createRecoveryService({ ...challengeServiceParameters(store.db, clock.now), onKeyChanged: () => {} });
    const challenge = await recovery.challenge({ wallet: wallet.address, txHash: null, origin: testOrigins.public });
    if (!challenge.ok) throw new Error(challenge.code);
    const signature = await wallet.signMessage({ message: challenge.value.intent.messageToSign });
    expect(await recovery.claim({ intentId: challenge.value.intent.intentId, signature })).toMatchObject({
      ok: false,
      code: "NO_RECOVERABLE_KEY",
    });
    expect(await storedKey(info.id)).toMatchObject({ secretVersion: 1, revokedAt: t0 });
  });
});
