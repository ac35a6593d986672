import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { generateId } from "../../api/keys/apiKeyFormat";
import { createKeyCache } from "../../api/keys/createKeyCache";
import { insertKey } from "../../api/store/keyQueries";
import { countSelects } from "../support/countSelects";
import { type Backend, backendNames, openBackend } from "./support";

const backendName = "postgres";

/** Postgres only: a read held up for real needs a second connection holding a table lock (no DATABASE_URL: skipped). */
describe.skipIf(!backendNames.includes(backendName))(`the key cache on ${backendName}, with a store read held up`, () => {
  let backend: Backend;
  beforeAll(async () => {
    backend = await openBackend(backendName);
  });
  afterAll(() => backend.close());

  async function newKey(serial: number) {
    const now = new Date();
    const key = await insertKey(backend.store.db, {
      id: generateId("key"),
      secretHash: `hung-read-hash-${serial}`,
      tier: "PRO",
      wallet: `0x${String(serial).padStart(40, "7")}`,
      issuedAt: now,
      expiresAt: new Date(now.getTime() + 31 * 86_400_000),
      cycleAnchor: now,
    });
    if (!key) throw new Error("key not inserted");
    return key;
  }

  test("behavior: a lookup does not join a store read that started more than maxStalenessMs ago: it reads again", async () => {
    const [known, held] = [await newKey(1), await newKey(2)];
    const { db, reads } = countSelects(backend.store.db);
    let at = 1_000_000;
    const cache = createKeyCache({ db, maxStalenessMs: 1000, now: () => at });
    await cache.find(known.secretHash);
    // Another connection locks the keys' table: every read of it waits until the lock goes.
    let release = () => {};
    const released = new Promise<void>((done) => {
      release = done;
    });
    let locked = () => {};
    const lockTaken = new Promise<void>((done) => {
      locked = done;
    });
    const holder = backend.replica(1).db.transaction(async (tx) => {
      await tx.execute(sql`LOCK TABLE app.api_key IN ACCESS EXCLUSIVE MODE`);
      locked();
      await released;
    });
    await lockTaken;
    reads.count = 0;
    const first = cache.find(held.secretHash);
    at += 400;
    const joined = cache.find(held.secretHash);
    // Past the bound the epoch is read again (its table is not locked), and the read in flight is too old to join.
    at += 700;
    const second = cache.find(held.secretHash);
    // The second read is issued once the epoch read returns; a lookup that joined instead never issues one
    // (then the wait gives up after 10 s, and the count below fails).
    for (let waited = 0; reads.count < 3 && waited < 1000; waited++) await new Promise((r) => setTimeout(r, 10));
    release();
    await holder;
    expect((await Promise.all([first, joined, second])).map((k) => k?.id)).toEqual([held.id, held.id, held.id]);
    expect(reads.count).toBe(3);
  });
});
