import type { PGlite } from "@electric-sql/pglite";
import fc from "fast-check";
import { afterEach, beforeAll, beforeEach, describe, expect, test, vi } from "vitest";
import { type CreditLeases, createCreditLeases, leaseIdleMs } from "../../api/access/createCreditLeases";
import { readCreditUsage, type SpendCreditsParameters, spendCredits } from "../../api/store/creditQueries";
import { fileAppStore } from "../support/fileAppStore";

/**
 * The lease rules one by one, on createCreditLeases itself: an injected lease clock and fake timers
 * (setTimeout and clearTimeout only: the store runs for real), so grant sizes and idle returns follow
 * exactly from the rules; then a property over two replicas' schedules. test/unit/createCreditLeases.test.ts
 * checks the same leases through the credit service under load.
 */

const allowance = 10_000;
const day = 20_500;
// PGlite: its client logs the writes below, and the timers faked here would drive a Postgres pool's.
const store = fileAppStore({ onPglite: true });
let clockMs = 0;
let serial = 0;
const client = () => (store.db as unknown as { $client: PGlite }).$client;

beforeAll(async () => {
  // Every write statement on credit_usage, refused conditional writes included (a statement trigger
  // fires whether or not a row changes; an upsert fires both INSERT and UPDATE).
  await client().exec(`CREATE TABLE app.credit_write_log (op text NOT NULL);
    CREATE FUNCTION app.log_credit_write() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN INSERT INTO app.credit_write_log VALUES (TG_OP); RETURN NULL; END $$;
    CREATE TRIGGER credit_usage_write_log AFTER INSERT OR UPDATE ON app.credit_usage
      FOR EACH STATEMENT EXECUTE FUNCTION app.log_credit_write();`);
});
beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
  clockMs = 5_000_000;
});
afterEach(() => {
  vi.useRealTimers();
});

const newKeyId = () => `key_rules${String(++serial).padStart(20, "0")}`;
const callOf = (keyId: string, cost = 1, over: Partial<SpendCreditsParameters> = {}): SpendCreditsParameters => ({
  keyId,
  cost,
  cycle: 0,
  day,
  allowance,
  dailyCap: null,
  ...over,
});
const replica = (maxLeaseCredits = 64): CreditLeases => createCreditLeases({ db: store.db, maxLeaseCredits, now: () => clockMs });
const storeUsed = async (keyId: string) => (await readCreditUsage(store.db, keyId))?.used ?? 0;

/** Moves the lease clock and the timers together. */
function elapse(ms: number) {
  clockMs += ms;
  vi.advanceTimersByTime(ms);
}

/**
 * Waits for the store writes `leases` has queued for `keyId` (a refill, a return): a spend of nothing
 * in another cycle queues behind them, and neither writes nor changes the lease.
 */
async function settled(leases: CreditLeases, keyId: string) {
  expect(await leases.spend(callOf(keyId, 0, { cycle: -1 }))).toBeUndefined();
}

/** Write statements on credit_usage so far: conditional spends (an upsert each, refused or not) and returns. */
async function writes(): Promise<{ spends: number; returns: number }> {
  const { rows } = await client().query<{ op: string; n: number }>("SELECT op, count(*)::int AS n FROM app.credit_write_log GROUP BY op");
  const count = (op: string) => rows.find((r) => r.op === op)?.n ?? 0;
  return { spends: count("INSERT"), returns: count("UPDATE") - count("INSERT") };
}

/** Serves `calls` calls one after another, each settled; [call number, store count] wherever the store's count moved. */
async function serveSerially(leases: CreditLeases, keyId: string, calls: number, from = 1): Promise<[number, number][]> {
  const moves: [number, number][] = [];
  let last = await storeUsed(keyId);
  for (let call = from; call < from + calls; call++) {
    expect(await leases.spend(callOf(keyId))).toBeDefined();
    await settled(leases, keyId);
    const used = await storeUsed(keyId);
    if (used !== last) moves.push([call, used]);
    last = used;
  }
  return moves;
}

describe("credit lease rules (injected clock)", () => {
  test("behavior: while leases run out within a second each grant doubles the extra (up to CREDIT_LEASE_MAX less what is held), and the next is taken once a quarter of the last is left", async () => {
    const key = newKeyId();
    const leases = replica(64);
    // Call 1 learns what is left (the call alone); call 2 takes 1 extra; from then on a refill is taken
    // in the background by the draw that leaves at most a quarter of the last extra: at call 3 (0 of 1
    // left), 5 (0 of 2), 8 (1 of 4), 15 (2 of 8), 29 (4 of 16), 57 (8 of 32: 64 asked, 56 = 64 - 8 taken),
    // 107 (14 of 56: 112 asked, 50 = 64 - 14 taken).
    expect(await serveSerially(leases, key, 110)).toEqual([
      [1, 1],
      [2, 3],
      [3, 5],
      [5, 9],
      [8, 17],
      [15, 33],
      [29, 65],
      [57, 121],
      [107, 171],
    ]);
    // The replica's row leaves its unspent lease out of both counts; `covering` shows it while the lease covers the cost.
    const held = 171 - 111;
    expect(await leases.spend(callOf(key))).toMatchObject({ used: 111, dayUsed: 111 });
    expect(leases.covering(key, 0, held)).toMatchObject({ keyId: key, used: 111, dayUsed: 111 });
    expect(leases.covering(key, 0, held + 1)).toBeUndefined();
    expect(leases.covering(key, 1, 1)).toBeUndefined();
    // One idle timer for the lease however many grants renewed it; none once it is given back.
    expect(vi.getTimerCount()).toBe(1);
    await leases.release();
    expect(await storeUsed(key)).toBe(111);
    expect(vi.getTimerCount()).toBe(0);
  });

  test("behavior: a lease that lasted a second or more halves the next extra; a fast one doubles it again", async () => {
    const key = newKeyId();
    const leases = replica(64);
    const fast = await serveSerially(leases, key, 8);
    expect(fast.at(-1)).toEqual([8, 17]);
    // The lease of call 8 (8 extra) runs out at call 15, exactly a second after its grant: 4 extra.
    clockMs += 1000;
    expect(await serveSerially(leases, key, 12, 9)).toEqual([
      [15, 21],
      [20, 29],
    ]);
  });

  test("behavior: a lease whose last grant took no extra (it lasted too long) is not refilled ahead of the calls", async () => {
    const key = newKeyId();
    const leases = replica(64);
    expect(await serveSerially(leases, key, 2)).toEqual([
      [1, 1],
      [2, 3],
    ]);
    clockMs += 1000;
    // 1 held, a call of 2: the grant takes the call alone (half of 1 extra is 0) and keeps the 1 held.
    expect(await leases.spend(callOf(key, 2))).toMatchObject({ used: 4 });
    expect(await storeUsed(key)).toBe(5);
    expect(await leases.spend(callOf(key))).toMatchObject({ used: 5 });
    await settled(leases, key);
    expect(await storeUsed(key)).toBe(5);
  });

  test("behavior: calls that wait for a grant are all covered by it: ten concurrent calls cost one store write, and one refill follows", async () => {
    const key = newKeyId();
    const leases = replica(1000);
    expect(await leases.spend(callOf(key, 5))).toMatchObject({ used: 5 });
    const before = await writes();
    const served = await Promise.all(Array.from({ length: 10 }, () => leases.spend(callOf(key, 5))));
    expect(served.every((row) => row !== undefined)).toBe(true);
    await settled(leases, key);
    // The first waiting call's grant takes 45 extra for the 9 behind it; the draw that leaves 10 of them
    // (at most a quarter) starts the one refill (90: double the 45), and the two draws after it start none.
    expect(await storeUsed(key)).toBe(5 + 50 + 90);
    expect(await writes()).toEqual({ spends: before.spends + 2, returns: before.returns });
  });

  test("behavior: a lease takes at most 1/16 of what the store has left after the call: none with 15 left, 1 with 16", async () => {
    for (const [left, taken] of [
      [17, 1],
      [18, 2],
    ] as const) {
      const key = newKeyId();
      await spendCredits(store.db, callOf(key, allowance - left));
      const leases = replica(64);
      await serveSerially(leases, key, 1);
      await serveSerially(leases, key, 1, 2);
      expect(await storeUsed(key)).toBe(allowance - left + 1 + taken);
    }
  });

  test("behavior: a call under a daily cap is never served from a lease: the store checks the cap", async () => {
    const key = newKeyId();
    const leases = replica(64);
    expect(await serveSerially(leases, key, 3)).toEqual([
      [1, 1],
      [2, 3],
      [3, 5],
    ]);
    expect(leases.covering(key, 0, 2)).toMatchObject({ used: 3, dayUsed: 3 });
    // 3 served today: a cap of 3 refuses the next call, though the lease holds 2.
    expect(await leases.spend(callOf(key, 1, { dailyCap: 3 }))).toBeUndefined();
    expect(leases.covering(key, 0, 2)).toMatchObject({ used: 3 });
  });

  test("behavior: a grant refused because another replica spent what this one's last grant showed serves the call alone; a refused call costs one write", async () => {
    const key = newKeyId();
    const leases = replica(64);
    await serveSerially(leases, key, 1);
    // Another replica takes all but one credit.
    await spendCredits(store.db, callOf(key, allowance - 2));
    let before = await writes();
    // This replica still sees room for 1 extra: that grant is refused, then the call alone is served.
    expect(await leases.spend(callOf(key))).toMatchObject({ used: allowance });
    expect((await writes()).spends).toBe(before.spends + 2);
    expect(await storeUsed(key)).toBe(allowance);
    for (const spender of [leases, replica(64)]) {
      before = await writes();
      expect(await spender.spend(callOf(key))).toBeUndefined();
      expect((await writes()).spends).toBe(before.spends + 1);
    }
  });

  test("behavior: a balance read takes a lease's unspent credits out of the store's row (used and dayUsed alike), only for the lease's own key and cycle", async () => {
    const leases = replica();
    const keyId = newKeyId();
    // Call 1 is served alone, call 2 takes an extra credit into the lease (the rules above).
    expect(await serveSerially(leases, keyId, 2)).toEqual([
      [1, 1],
      [2, 3],
    ]);
    await settled(leases, keyId);
    const row = await readCreditUsage(store.db, keyId);
    if (!row) throw new Error("no credit row after a spend");
    expect(row).toMatchObject({ used: 3, dayUsed: 3 });
    expect(leases.unheld(row)).toEqual({ ...row, used: 2, dayUsed: 2 });
    const nextCycle = { ...row, cycle: row.cycle + 1 };
    expect(leases.unheld(nextCycle)).toEqual(nextCycle);
    expect(replica().unheld(row)).toEqual(row);
  });

  test("behavior: a lease drawn from within 2 s is kept; 2 s after its last draw it goes back to the store", async () => {
    const key = newKeyId();
    const leases = replica(64);
    await serveSerially(leases, key, 3);
    elapse(leaseIdleMs - 500);
    await serveSerially(leases, key, 1, 4);
    // The timer set at the first grant fires; the last draw was 500 ms ago.
    elapse(500);
    await settled(leases, key);
    expect(await storeUsed(key)).toBe(5);
    elapse(leaseIdleMs - 501);
    await settled(leases, key);
    expect(await storeUsed(key)).toBe(5);
    elapse(1);
    await settled(leases, key);
    expect(await storeUsed(key)).toBe(4);
  });

  test("behavior: a released replica starts afresh: an empty lease goes back without a write, and the next lease goes back when idle", async () => {
    const key = newKeyId();
    const leases = replica(64);
    await serveSerially(leases, key, 1);
    const before = await writes();
    await leases.release();
    expect(await writes()).toEqual(before);
    // After the release the first grant again takes the call alone.
    expect(await serveSerially(leases, key, 2, 2)).toEqual([
      [2, 2],
      [3, 4],
    ]);
    await leases.release();
    expect(await storeUsed(key)).toBe(3);
    expect(await serveSerially(leases, key, 2, 4)).toEqual([
      [4, 4],
      [5, 6],
    ]);
    elapse(leaseIdleMs);
    await settled(leases, key);
    expect(await storeUsed(key)).toBe(5);
  });

  test("behavior: overlapping releases with calls between them give every leased credit back once and lose none", async () => {
    const key = newKeyId();
    const leases = replica(64);
    await serveSerially(leases, key, 2);
    expect(await storeUsed(key)).toBe(3);
    // Both releases find the first lease; the calls between them (2 credits each, more than it holds)
    // take a new one, which the second release must not forget.
    const done = Promise.all([leases.release(), leases.spend(callOf(key, 2)), leases.spend(callOf(key, 2)), leases.release()]);
    const [, first, second] = await done;
    expect([first, second]).toMatchObject([{ used: 4 }, { used: 6 }]);
    expect(await storeUsed(key)).toBe(7);
    await leases.release();
    expect(await storeUsed(key)).toBe(6);
  });

  /** One step of two replicas' schedule: a burst of concurrent calls on each, the clocks moving on, or a release. */
  const step = fc.oneof(
    fc.record({ kind: fc.constant("calls" as const), calls: fc.tuple(fc.nat(8), fc.nat(8)), cost: fc.integer({ min: 1, max: 5 }) }),
    fc.record({ kind: fc.constant("elapse" as const), ms: fc.integer({ min: 0, max: 2 * leaseIdleMs }) }),
    fc.record({ kind: fc.constant("release" as const), replica: fc.constantFrom(0, 1) }),
  );

  test("property: two replicas on one store, any schedule of concurrent calls, pauses and releases: never more than the N credits left are served, and none is lost", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 300 }),
        fc.constantFrom(0, 8, 64, 1000),
        fc.array(step, { minLength: 1, maxLength: 8 }),
        async (n, maxLeaseCredits, schedule) => {
          const key = newKeyId();
          await spendCredits(store.db, callOf(key, allowance - n));
          const replicas = [replica(maxLeaseCredits), replica(maxLeaseCredits)];
          let served = 0;
          for (const s of schedule) {
            if (s.kind === "calls") {
              const rows = await Promise.all(
                replicas.flatMap((r, i) => Array.from({ length: s.calls[i] ?? 0 }, () => r.spend(callOf(key, s.cost)))),
              );
              served += s.cost * rows.filter((row) => row !== undefined).length;
            } else if (s.kind === "elapse") elapse(s.ms);
            else await replicas[s.replica]?.release();
            for (const r of replicas) await settled(r, key);
            expect(served).toBeLessThanOrEqual(n);
          }
          await Promise.all(replicas.map((r) => r.release()));
          expect(await storeUsed(key)).toBe(allowance - n + served);
          // What is left is all there: a third replica serves exactly the rest.
          const last = replica(maxLeaseCredits);
          let rest = 0;
          while (await last.spend(callOf(key))) rest += 1;
          expect(rest).toBe(n - served);
        },
      ),
      { numRuns: 15 },
    );
  });
});
