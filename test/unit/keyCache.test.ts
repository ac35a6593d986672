import type { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createKeyCache } from "../../api/keys/createKeyCache";
import { type AppStore, createAppStore } from "../../api/store/createAppStore";
import { insertKey, type KeyRecord } from "../../api/store/keyQueries";

let store: AppStore;
let serial = 0;
const sql = (text: string, params?: unknown[]) => (store.db as unknown as { $client: PGlite }).$client.query(text, params);

beforeAll(async () => {
  store = createAppStore({ kind: "pglite", directory: "memory://" });
  await store.ready;
});
afterAll(async () => {
  await store?.close();
});

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

/** Changes a key without moving the epoch (the trigger off): only what reads the store sees it. */
async function changeUnannounced(keyId: string, tier: KeyRecord["tier"]) {
  await sql("ALTER TABLE app.api_key DISABLE TRIGGER api_key_bumps_key_epoch");
  await sql("UPDATE app.api_key SET tier = $1 WHERE id = $2", [tier, keyId]);
  await sql("ALTER TABLE app.api_key ENABLE TRIGGER api_key_bumps_key_epoch");
}

describe("createKeyCache", () => {
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
    // Within the bound a lookup may still see the key as it was (this one does: no epoch read was due).
    expect((await cache.find(key.secretHash))?.revokedAt).toBeNull();
    at += 601;
    expect((await cache.find(key.secretHash))?.revokedAt).toBeInstanceOf(Date);
  });

  test("behavior: past half the bound a lookup answers from memory and confirms the epoch in the background", async () => {
    const key = await newKey();
    let at = 2_000_000;
    const cache = createKeyCache({ db: store.db, maxStalenessMs: 1000, now: () => at });
    await cache.find(key.secretHash);
    await sql("UPDATE app.api_key SET revoked_at = now() WHERE id = $1", [key.id]);
    at += 600;
    expect((await cache.find(key.secretHash))?.revokedAt).toBeNull();
    await new Promise((r) => setTimeout(r, 50));
    expect((await cache.find(key.secretHash))?.revokedAt).toBeInstanceOf(Date);
  });

  test("behavior: invalidate drops every cached key at once (this replica's own changes)", async () => {
    const key = await newKey();
    const cache = createKeyCache({ db: store.db });
    await cache.find(key.secretHash);
    await changeUnannounced(key.id, "STARTER");
    cache.invalidate();
    expect(await cache.find(key.secretHash)).toMatchObject({ tier: "STARTER" });
  });

  test("behavior: unknown secrets are not cached, and the least recently used key goes first beyond maxEntries", async () => {
    const cache = createKeyCache({ db: store.db, maxEntries: 2 });
    expect(await cache.find("no-such-hash")).toBeUndefined();
    const [a, b, c] = [await newKey(), await newKey(), await newKey()];
    for (const k of [a, b, c]) await cache.find(k.secretHash);
    for (const k of [a, b, c]) await changeUnannounced(k.id, "GROWTH");
    expect(await cache.find(c.secretHash)).toMatchObject({ tier: "PRO" });
    expect(await cache.find(b.secretHash)).toMatchObject({ tier: "PRO" });
    expect(await cache.find(a.secretHash)).toMatchObject({ tier: "GROWTH" });
  });

  test("behavior: with a bound of 0 every lookup reads the store", async () => {
    const key = await newKey();
    const cache = createKeyCache({ db: store.db, maxStalenessMs: 0 });
    await cache.find(key.secretHash);
    await changeUnannounced(key.id, "GROWTH");
    expect(await cache.find(key.secretHash)).toMatchObject({ tier: "GROWTH" });
  });
});
