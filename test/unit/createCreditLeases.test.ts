import { describe, expect, test } from "vitest";
import { leaseIdleMs } from "../../api/access/createCreditLeases";
import { type CreditService, createCreditService, spendableNow } from "../../api/access/createCreditService";
import type { Tier } from "../../api/keys/planCatalogue";
import { readCreditUsage } from "../../api/store/creditQueries";
import { insertKey, type KeyInfo } from "../../api/store/keyQueries";
import { fileAppStore } from "../support/fileAppStore";

const dayMs = 86_400_000;
const anchor = new Date("2026-03-10T15:20:30.250Z");

const store = fileAppStore();
let clockAt = anchor.getTime();
const clock = () => new Date(clockAt);
let serial = 0;

/** A fresh key of `tier` issued at `anchor` with `used` credits already spent this cycle. */
async function newKey(tier: Tier, used = 0): Promise<KeyInfo> {
  clockAt = anchor.getTime();
  serial += 1;
  const row = await insertKey(store.db, {
    id: `key_lease${String(serial).padStart(20, "0")}`,
    secretHash: `lease-hash-${serial}`,
    tier,
    wallet: `0x${String(serial).padStart(40, "1")}`,
    issuedAt: anchor,
    expiresAt: tier === "FREE" ? null : new Date(anchor.getTime() + 31 * dayMs),
    cycleAnchor: anchor,
  });
  if (!row) throw new Error("key not inserted");
  if (used > 0) {
    const setup = createCreditService({ db: store.db, clock, maxLeaseCredits: 0 });
    if (!(await setup.charge(row, used)).ok) throw new Error("setup charge refused");
  }
  const { secretHash: _, ...info } = row;
  return info;
}

/** What the store counts as used for `key` (charged, plus what replicas hold in leases). */
const storeUsed = async (key: KeyInfo) => (await readCreditUsage(store.db, key.id))?.used ?? 0;

/** Charges `calls` calls of 1 credit, `concurrency` at a time; how many were served. */
async function serve(credits: CreditService, key: KeyInfo, calls: number, concurrency = 10): Promise<number> {
  let served = 0;
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < calls) {
        next += 1;
        if ((await credits.charge(key, 1)).ok) served += 1;
      }
    }),
  );
  return served;
}

/**
 * Serves `calls` calls, then single ones until this replica holds leased credits (a lease can run out
 * exactly at the last call); the calls served. `before` is what the store counted before them.
 */
async function serveHolding(credits: CreditService, key: KeyInfo, calls: number, before: number): Promise<number> {
  let served = await serve(credits, key, calls);
  for (let extra = 0; extra < 10 && (await storeUsed(key)) - before === served; extra++) {
    if ((await credits.charge(key, 1)).ok) served += 1;
  }
  return served;
}

describe("credit leases", () => {
  test("behavior: a busy key is served from leases: the store counts every call served plus one lease, at most CREDIT_LEASE_MAX", async () => {
    const key = await newKey("PRO");
    const credits = createCreditService({ db: store.db, clock, maxLeaseCredits: 64 });
    const served = await serveHolding(credits, key, 500, 0);
    expect(served).toBeGreaterThanOrEqual(500);
    const held = (await storeUsed(key)) - served;
    expect(held).toBeGreaterThan(0);
    expect(held).toBeLessThanOrEqual(64);
    // This replica's view does not count its own lease as used: X-Credits-Remaining is exact here.
    expect(await credits.balance(key)).toMatchObject({ used: served, remaining: 500_000 - served });
    expect(spendableNow(await credits.balanceFor(key, 1))).toBe(500_000 - served);
    await credits.release();
    expect(await storeUsed(key)).toBe(served);
  });

  test("behavior: two replicas on one store under concurrent load serve exactly the N credits left, never more", async () => {
    const n = 300;
    const key = await newKey("STARTER", 10_000 - n);
    const replicas = [0, 1].map(() => createCreditService({ db: store.db, clock, maxLeaseCredits: 1000 }));
    const served = await Promise.all(replicas.map((r) => serve(r, key, 2 * n, 20)));
    expect(served.reduce((a, b) => a + b, 0)).toBe(n);
    expect(await storeUsed(key)).toBe(10_000);
    for (const r of replicas) {
      const refused = await r.charge(key, 1);
      expect(refused).toMatchObject({ ok: false, reason: "CYCLE_EXHAUSTED", balance: { remaining: 0 } });
    }
  });

  test("behavior: with fewer than 16 credits left, leases shrink to the call itself (1/16 of what is left)", async () => {
    const key = await newKey("STARTER", 10_000 - 15);
    const credits = createCreditService({ db: store.db, clock, maxLeaseCredits: 1000 });
    for (let n = 1; n <= 15; n++) {
      expect((await credits.charge(key, 1)).ok).toBe(true);
      expect(await storeUsed(key)).toBe(10_000 - 15 + n);
    }
    expect((await credits.charge(key, 1)).ok).toBe(false);
  });

  test("behavior: a free key (daily cap) never leases: each call is one store write", async () => {
    const key = await newKey("FREE");
    const credits = createCreditService({ db: store.db, clock, maxLeaseCredits: 1000 });
    for (let n = 1; n <= 10; n++) {
      expect((await credits.charge(key, 1)).ok).toBe(true);
      expect(await storeUsed(key)).toBe(n);
    }
    expect(await credits.charge(key, 1)).toMatchObject({ ok: false, reason: "DAILY_LIMIT" });
  });

  test("behavior: CREDIT_LEASE_MAX=0 writes every call to the store", async () => {
    const key = await newKey("GROWTH");
    const credits = createCreditService({ db: store.db, clock, maxLeaseCredits: 0 });
    expect(await serve(credits, key, 200)).toBe(200);
    expect(await storeUsed(key)).toBe(200);
  });

  test("behavior: a replica that stops without giving its lease back (a crash) loses at most that lease; another serves the rest exactly", async () => {
    const n = 400;
    const key = await newKey("STARTER", 10_000 - n);
    const crashed = createCreditService({ db: store.db, clock, maxLeaseCredits: 32 });
    const first = await serveHolding(crashed, key, 100, 10_000 - n);
    const lost = (await storeUsed(key)) - (10_000 - n) - first;
    expect(lost).toBeGreaterThan(0);
    expect(lost).toBeLessThanOrEqual(32);
    // `crashed` is never used again (nor released): its lease is gone with it.
    const survivor = createCreditService({ db: store.db, clock, maxLeaseCredits: 32 });
    const rest = await serve(survivor, key, n);
    expect(rest).toBe(n - first - lost);
    expect(await storeUsed(key)).toBe(10_000);
  });

  test("behavior: an idle lease goes back to the store by itself", async () => {
    const key = await newKey("PRO");
    const credits = createCreditService({ db: store.db, clock, maxLeaseCredits: 64 });
    expect(await serve(credits, key, 200)).toBe(200);
    expect(await storeUsed(key)).toBeGreaterThan(200);
    await new Promise((r) => setTimeout(r, leaseIdleMs * 1.5));
    expect(await storeUsed(key)).toBe(200);
    expect(await credits.balance(key)).toMatchObject({ used: 200 });
  });

  test("behavior: a lease of one cycle is never spent in the next; the new cycle starts from nothing", async () => {
    const key = await newKey("STARTER");
    const credits = createCreditService({ db: store.db, clock, maxLeaseCredits: 64 });
    expect(await serve(credits, key, 100)).toBe(100);
    clockAt = anchor.getTime() + 31 * dayMs;
    expect(await credits.charge(key, 1)).toMatchObject({ ok: true, balance: { used: 1, remaining: 9_999 } });
    const row = await readCreditUsage(store.db, key.id);
    expect(row).toMatchObject({ cycle: 1, used: 1 });
    await credits.release();
    expect(await readCreditUsage(store.db, key.id)).toMatchObject({ cycle: 1, used: 1 });
  });
});
