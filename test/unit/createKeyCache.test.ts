import type { PGlite } from "@electric-sql/pglite";
import { describe, expect, test } from "vitest";
import { createKeyCache } from "../../api/keys/createKeyCache";
import { insertKey, type KeyRecord } from "../../api/store/keyQueries";
import { countSelects } from "../support/countSelects";
import { fileAppStore } from "../support/fileAppStore";

// PGlite: its one queued connection makes a query a barrier behind the cache's background epoch read.
const store = fileAppStore({ onPglite: true });
let serial = 0;
const sql = (text: string, params?: unknown[]) => (store.db as unknown as { $client: PGlite }).$client.query(text, params);

async function newKey(): Promise<KeyRecord> {
  serial += 1;
  const now = new Date();
  const row = await insertKey(store.db, {
    id: `key_cache${String(serial).padStart(20, "0")}`,
    secretHash: `cache-hash-${serial}`,
    tier: "PRO",
    wallet: `0x${String(serial).padStart(40, "2")}`,
    issuedAt: now,
    expiresAt: new Date(now.getTime() + 31 * 86_400_000),
    cycleAnchor: now,
  });
  if (!row) throw new Error("key not inserted");
  return row;
}

/** `builder` (a query and what its methods build from it) sent only once `gate` opens: a store read that hangs until then. */
function heldUntil<T extends object>(builder: T, gate: Promise<void>): T {
  return new Proxy(builder, {
    get(target, property) {
      const value = Reflect.get(target, property, target);
      if (property === "then") {
        return (...settle: Parameters<PromiseLike<unknown>["then"]>) =>
          gate.then(() => (target as unknown as PromiseLike<unknown>).then(...settle));
      }
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        const built = value.apply(target, args);
        return built !== null && typeof built === "object" ? heldUntil(built, gate) : built;
      };
    },
  });
}

/** Changes a key without moving the epoch (the trigger off): only what reads the store sees it. */
async function changeUnannounced(keyId: string, tier: KeyRecord["tier"]) {
  await sql("ALTER TABLE app.api_key DISABLE TRIGGER api_key_bumps_key_epoch");
  await sql("UPDATE app.api_key SET tier = $1 WHERE id = $2", [tier, keyId]);
  await sql("ALTER TABLE app.api_key ENABLE TRIGGER api_key_bumps_key_epoch");
}

describe("createKeyCache", () => {
  /** A cache over the store whose `select`s are counted (the key lookups; the epoch is read at `at` first). */
  async function countingCache(at: number) {
    const { db, reads } = countSelects(store.db);
    const cache = createKeyCache({ db, maxStalenessMs: 1000, now: () => at });
    await cache.find((await newKey()).secretHash);
    reads.count = 0;
    return { cache, reads };
  }

  test("behavior: concurrent lookups of one secret not in memory read the store once, a known key and an unknown one alike", async () => {
    const key = await newKey();
    const { cache, reads } = await countingCache(5_000_000);
    const found = await Promise.all(Array.from({ length: 10 }, () => cache.find(key.secretHash)));
    expect(found.map((r) => r?.id)).toEqual(Array(10).fill(key.id));
    expect(reads.count).toBe(1);
    const unknown = await Promise.all(Array.from({ length: 10 }, () => cache.find("cache-hash-never-issued")));
    expect(unknown).toEqual(Array(10).fill(undefined));
    expect(reads.count).toBe(2);
    // Not cached: the next lookup of the unknown secret reads again.
    await cache.find("cache-hash-never-issued");
    expect(reads.count).toBe(3);
  });

  test("behavior: a lookup after a drop does not join a read that started before it", async () => {
    const key = await newKey();
    const { cache, reads } = await countingCache(6_000_000);
    const before = cache.find(key.secretHash);
    cache.invalidate();
    const after = cache.find(key.secretHash);
    expect((await before)?.id).toBe(key.id);
    expect((await after)?.id).toBe(key.id);
    expect(reads.count).toBe(2);
  });

  test("behavior: a key is read from the store once, then from memory while the epoch stands", async () => {
    const key = await newKey();
    const cache = createKeyCache({ db: store.db });
    expect(await cache.find(key.secretHash)).toMatchObject({ id: key.id, tier: "PRO" });
    await changeUnannounced(key.id, "GROWTH");
    expect(await cache.find(key.secretHash)).toMatchObject({ tier: "PRO" });
    // A cache of its own reads the store.
    expect(await createKeyCache({ db: store.db }).find(key.secretHash)).toMatchObject({ tier: "GROWTH" });
  });

  test("behavior: a revocation (any UPDATE of api_key moves the epoch) is seen by every lookup starting more than the bound after it", async () => {
    const key = await newKey();
    let at = 1_000_000;
    const cache = createKeyCache({ db: store.db, maxStalenessMs: 1000, now: () => at });
    expect((await cache.find(key.secretHash))?.revokedAt).toBeNull();
    await sql("UPDATE app.api_key SET revoked_at = now() WHERE id = $1", [key.id]);
    at += 400;
    // Within the bound a lookup may still see the key as it was (this one does: no epoch read was due),
    // up to the bound itself: the epoch read that started exactly 1000 ms before still counts.
    expect((await cache.find(key.secretHash))?.revokedAt).toBeNull();
    at += 600;
    expect((await cache.find(key.secretHash))?.revokedAt).toBeNull();
    at += 1;
    expect((await cache.find(key.secretHash))?.revokedAt).toBeInstanceOf(Date);
  });

  test("behavior: an epoch read that finds the epoch unchanged keeps the cached keys", async () => {
    const key = await newKey();
    let at = 1_500_000;
    const cache = createKeyCache({ db: store.db, maxStalenessMs: 1000, now: () => at });
    await cache.find(key.secretHash);
    await changeUnannounced(key.id, "GROWTH");
    at += 1001;
    expect(await cache.find(key.secretHash)).toMatchObject({ tier: "PRO" });
  });

  test("behavior: up to half the bound lookups read nothing; past it a lookup answers from memory and confirms the epoch in the background", async () => {
    const key = await newKey();
    let at = 2_000_000;
    const cache = createKeyCache({ db: store.db, maxStalenessMs: 1000, now: () => at });
    await cache.find(key.secretHash);
    await sql("UPDATE app.api_key SET revoked_at = now() WHERE id = $1", [key.id]);
    at += 500;
    // No epoch read starts, so however many store round trips pass, the change stays unseen.
    for (let trip = 0; trip < 5; trip++) {
      expect((await cache.find(key.secretHash))?.revokedAt).toBeNull();
      await sql("SELECT 1");
    }
    at += 1;
    expect((await cache.find(key.secretHash))?.revokedAt).toBeNull();
    let seen: Date | null | undefined = null;
    for (let trip = 0; trip < 10 && !seen; trip++) {
      await sql("SELECT 1");
      seen = (await cache.find(key.secretHash))?.revokedAt;
    }
    expect(seen).toBeInstanceOf(Date);
  });

  test("behavior: a lookup past the bound that joins an epoch read started too early reads the store itself", async () => {
    const key = await newKey();
    let at = 2_200_000;
    const cache = createKeyCache({ db: store.db, maxStalenessMs: 1000, now: () => at });
    await cache.find(key.secretHash);
    await changeUnannounced(key.id, "GROWTH");
    at += 600;
    // This lookup answers from memory and starts an epoch read; the next, 1001 ms after that read
    // started, joins it while it runs: the epoch it confirms is too old to trust the cached key.
    const first = cache.find(key.secretHash);
    at += 1001;
    const second = cache.find(key.secretHash);
    expect(await first).toMatchObject({ tier: "PRO" });
    expect(await second).toMatchObject({ tier: "GROWTH" });
  });

  test("behavior: a load that started before a drop is not kept (the key may have changed under it)", async () => {
    const key = await newKey();
    const at = 2_500_000;
    const cache = createKeyCache({ db: store.db, maxStalenessMs: 1000, now: () => at });
    expect(await cache.find("no-such-hash")).toBeUndefined();
    const loading = cache.find(key.secretHash);
    cache.invalidate();
    expect(await loading).toMatchObject({ tier: "PRO" });
    await changeUnannounced(key.id, "GROWTH");
    expect(await cache.find(key.secretHash)).toMatchObject({ tier: "GROWTH" });
  });

  test("behavior: invalidate drops every cached key at once (this replica's own changes)", async () => {
    const key = await newKey();
    const cache = createKeyCache({ db: store.db });
    await cache.find(key.secretHash);
    await changeUnannounced(key.id, "STARTER");
    cache.invalidate();
    expect(await cache.find(key.secretHash)).toMatchObject({ tier: "STARTER" });
  });

  test("behavior: unknown secrets are not cached (they push no key out), and the least recently used key goes first beyond maxEntries", async () => {
    const cache = createKeyCache({ db: store.db, maxEntries: 2 });
    const [a, b, c] = [await newKey(), await newKey(), await newKey()];
    await cache.find(a.secretHash);
    await cache.find(b.secretHash);
    // a is used again, so b is the least recently used when c comes in.
    await cache.find(a.secretHash);
    await cache.find(c.secretHash);
    for (const unknown of ["no-such-hash", "no-such-hash-either"]) expect(await cache.find(unknown)).toBeUndefined();
    for (const k of [a, b, c]) await changeUnannounced(k.id, "GROWTH");
    expect(await cache.find(a.secretHash)).toMatchObject({ tier: "PRO" });
    expect(await cache.find(c.secretHash)).toMatchObject({ tier: "PRO" });
    expect(await cache.find(b.secretHash)).toMatchObject({ tier: "GROWTH" });
  });

  test("behavior: a store read of a secret is joined for the bound only (one that hangs is not), and the read made instead is the one joined", async () => {
    let at = 3_500_000;
    /** The key lookups (a `select` of whole rows; the epoch read names its column), and the gates of those held. */
    let keyReads = 0;
    let toHold = 0;
    const held: (() => void)[] = [];
    const db = new Proxy(store.db, {
      get(target, property, receiver) {
        const select = Reflect.get(target, property, receiver);
        if (property !== "select") return select;
        return (...fields: unknown[]) => {
          const builder = select.apply(target, fields);
          if (fields.length > 0) return builder;
          keyReads += 1;
          if (toHold === 0) return builder;
          toHold -= 1;
          return heldUntil(builder, new Promise<void>((open) => held.push(open)));
        };
      },
    });
    const cache = createKeyCache({ db, maxStalenessMs: 1000, now: () => at });
    // Confirms the epoch at `at`. The secret looked up next is unknown, so no answer is kept in memory.
    await cache.find("cache-hash-warm");
    keyReads = 0;
    toHold = 2;
    const hung = cache.find("cache-hash-hung");
    at += 1000;
    const joining = cache.find("cache-hash-hung");
    expect(keyReads).toBe(1);
    at += 1;
    // Past the bound this lookup waits for an epoch read (PGlite's one connection runs queries in order), then reads.
    const own = cache.find("cache-hash-hung");
    for (let trip = 0; trip < 10 && keyReads < 2; trip++) await sql("SELECT 1");
    expect(keyReads).toBe(2);
    held[0]?.();
    expect([await hung, await joining]).toEqual([undefined, undefined]);
    // The hung read's end leaves the newer read in flight to be joined.
    const later = cache.find("cache-hash-hung");
    expect(keyReads).toBe(2);
    held[1]?.();
    expect([await own, await later]).toEqual([undefined, undefined]);
  });

  test("behavior: with a bound of 0 every lookup reads the store, even within the same millisecond", async () => {
    const key = await newKey();
    const cache = createKeyCache({ db: store.db, maxStalenessMs: 0, now: () => 3_000_000 });
    await cache.find(key.secretHash);
    await changeUnannounced(key.id, "GROWTH");
    expect(await cache.find(key.secretHash)).toMatchObject({ tier: "GROWTH" });
  });
});
