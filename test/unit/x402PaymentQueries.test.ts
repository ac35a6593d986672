import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { x402Payment } from "../../api/store/schema";
import {
  claimWithinBalance,
  claimX402Payment,
  findX402Payment,
  findX402PaymentByIdentifier,
  type PayerCommitment,
  payerCommitments,
  recordX402Settlement,
  resolveX402Settlement,
} from "../../api/store/x402PaymentQueries";
import { baseNetwork, baseUsdc } from "../../base/baseChain";
import { fileAppStore } from "../support/fileAppStore";

const store = fileAppStore();

describe("resolveX402Settlement", () => {
  test("a PENDING payment is resolved once: the first resolution is recorded, a second (another retry's) is not", async () => {
    const at = new Date("2026-03-10T15:20:30.250Z");
    const claim = { id: "pending-payment", claimedAt: at };
    expect(
      await claimX402Payment(store.db, { ...claim, route: "GET /v1/gas/fees", network: baseNetwork, asset: baseUsdc, amount: 5000n }),
    ).toBe(true);
    // Still CLAIMED: nothing to resolve.
    const settled = { status: "SETTLED", txHash: "0xabc", reason: null, settledAt: at } as const;
    expect(await resolveX402Settlement(store.db, claim.id, settled)).toBe(false);
    await recordX402Settlement(store.db, claim, { status: "PENDING", txHash: null, reason: "settlement_pending", settledAt: at });
    expect(await resolveX402Settlement(store.db, claim.id, settled)).toBe(true);
    const failed = { status: "FAILED", txHash: null, reason: "authorization_expired_unused", settledAt: at } as const;
    expect(await resolveX402Settlement(store.db, claim.id, failed)).toBe(false);
    expect(await findX402Payment(store.db, claim.id)).toMatchObject({ status: "SETTLED", txHash: "0xabc", reason: null });
  });
});

const base = { route: "GET /v1/gas/fees", network: baseNetwork, asset: baseUsdc, amount: 5000n } as const;
const uniqueKey = () => `payer_${randomUUID()}`;

describe("findX402PaymentByIdentifier", () => {
  test("an id found past its retention is forgotten there, settled or failed; a pending one, and one retained until this very moment, are kept", async () => {
    const now = new Date("2026-11-28T09:00:00.500Z");
    const past = new Date(now.getTime() - 1);
    const cases = [
      { status: "SETTLED", retainedUntil: past, kept: false },
      { status: "FAILED", retainedUntil: past, kept: false },
      { status: "PENDING", retainedUntil: past, kept: true },
      { status: "SETTLED", retainedUntil: now, kept: true },
    ] as const;
    const ids: { id: string; identifier: string }[] = [];
    for (const c of cases) {
      const claim = { id: randomUUID(), claimedAt: now };
      const identifier = `pay_${randomUUID()}`;
      expect(await claimX402Payment(store.db, { ...base, ...claim, paymentIdentifier: identifier, retainedUntil: c.retainedUntil })).toBe(
        true,
      );
      await recordX402Settlement(store.db, claim, { status: c.status, txHash: null, reason: null, settledAt: now, answer: "{}" });
      ids.push({ id: claim.id, identifier });
    }
    // No retention pass has run: the lookup alone decides and forgets.
    const found = await Promise.all(ids.map(async ({ identifier }) => (await findX402PaymentByIdentifier(store.db, identifier, now))?.id));
    expect(found).toEqual(cases.map((c, i) => (c.kept ? ids[i]?.id : undefined)));
    const rows = await Promise.all(ids.map(async ({ id }) => findX402Payment(store.db, id)));
    expect(rows.map((r) => [r?.status, r?.answer, r?.paymentIdentifier === null])).toEqual([
      ["SETTLED", null, true],
      ["FAILED", null, true],
      ["PENDING", "{}", false],
      ["SETTLED", "{}", false],
    ]);
  });
});

describe("payerCommitments", () => {
  test("a payer's claimed and pending payments, and those settled after the given time; not its failed ones, older settled ones, or another payer's", async () => {
    const payerKey = uniqueKey();
    const since = new Date("2026-11-28T09:00:00Z");
    const after = new Date(since.getTime() + 1);
    const make = async (status: "CLAIMED" | "PENDING" | "SETTLED" | "FAILED", settledAt: Date, key = payerKey) => {
      const claim = { id: randomUUID(), claimedAt: since };
      await claimX402Payment(store.db, {
        ...base,
        ...claim,
        payerKey: key,
        nonce: `0x${claim.id.replaceAll("-", "")}`,
        validBefore: 1234n,
      });
      if (status !== "CLAIMED") await recordX402Settlement(store.db, claim, { status, txHash: null, reason: null, settledAt });
      return claim.id;
    };
    const claimed = await make("CLAIMED", after);
    const pending = await make("PENDING", since);
    const settledAfter = await make("SETTLED", after);
    await make("SETTLED", since);
    await make("FAILED", after);
    await make("CLAIMED", after, uniqueKey());
    const commitments = await payerCommitments(store.db, payerKey, since);
    const expected = (
      [
        [claimed, "CLAIMED", null],
        [pending, "PENDING", since],
        [settledAfter, "SETTLED", after],
      ] as const
    ).map(([id, status, settledAt]) => ({
      id,
      amount: 5000n,
      nonce: `0x${id.replaceAll("-", "")}`,
      validBefore: 1234n,
      status,
      settledAt,
    }));
    expect([...commitments].sort((a, b) => a.id.localeCompare(b.id))).toEqual(expected.sort((a, b) => a.id.localeCompare(b.id)));
  });
});

describe("claimWithinBalance", () => {
  const sum = (commitments: PayerCommitment[]) => commitments.reduce((total, c) => total + c.amount, 0n);
  const settledSince = new Date("2026-11-28T09:00:00Z");
  const claimOf = (payerKey: string, amount: bigint, id = randomUUID()) => ({ ...base, id, amount, claimedAt: settledSince, payerKey });

  test("claims while the payer's other commitments and this payment fit its balance, to the unit; refuses past it, writing nothing", async () => {
    const payerKey = uniqueKey();
    const seen: string[][] = [];
    const committed = (commitments: PayerCommitment[]) => {
      seen.push(commitments.map((c) => c.id));
      return sum(commitments);
    };
    const first = claimOf(payerKey, 3000n);
    expect(await claimWithinBalance(store.db, first, { settledSince, committed, balance: 5000n })).toBe("CLAIMED");
    const over = claimOf(payerKey, 2001n);
    expect(await claimWithinBalance(store.db, over, { settledSince, committed, balance: 5000n })).toBe("OVER_BALANCE");
    expect(await findX402Payment(store.db, over.id)).toBeUndefined();
    // 3000 committed, 1000 asked, 3999 held: 3000 - 1000 fits, 3000 + 1000 does not.
    expect(await claimWithinBalance(store.db, claimOf(payerKey, 1000n), { settledSince, committed, balance: 3999n })).toBe("OVER_BALANCE");
    const exact = claimOf(payerKey, 2000n);
    expect(await claimWithinBalance(store.db, exact, { settledSince, committed, balance: 5000n })).toBe("CLAIMED");
    expect((await findX402Payment(store.db, exact.id))?.status).toBe("CLAIMED");
    expect(seen).toEqual([[], [first.id], [first.id], [first.id]]);
  });

  test("a payment claimed already is not counted against itself: it is TAKEN, not over the balance", async () => {
    const payerKey = uniqueKey();
    const payment = claimOf(payerKey, 5000n);
    expect(await claimWithinBalance(store.db, payment, { settledSince, committed: sum, balance: 5000n })).toBe("CLAIMED");
    expect(await claimWithinBalance(store.db, payment, { settledSince, committed: sum, balance: 5000n })).toBe("TAKEN");
  });

  // Postgres only: PGlite has one connection, so its transactions never overlap.
  test.skipIf(!process.env.UNIT_DATABASE_URL)(
    "a payer's claims are made one at a time: a claim waits for another holding the payer's lock and counts what it committed",
    async () => {
      const payerKey = uniqueKey();
      const waiting = await store.db.transaction(async (tx) => {
        await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${payerKey}, 0))`);
        const claim = claimWithinBalance(store.db, claimOf(payerKey, 3000n), { settledSince, committed: sum, balance: 5000n });
        let answered = false;
        const blocked = async () => {
          while (!answered) {
            // node-postgres answers a query with its rows under `rows`.
            const waiters = (await store.db.execute(sql`SELECT 1 FROM pg_locks l JOIN pg_database d ON d.oid = l.database
              WHERE l.locktype = 'advisory' AND NOT l.granted AND d.datname = current_database()`)) as { rows: unknown[] };
            if (waiters.rows.length > 0) return "waiting";
            await new Promise((resolve) => setTimeout(resolve, 10));
          }
        };
        const first = await Promise.race([
          claim.then(() => {
            answered = true;
            return "answered";
          }),
          blocked(),
        ]);
        await tx.insert(x402Payment).values({ ...claimOf(payerKey, 3000n), status: "CLAIMED" });
        return { first, claim };
      });
      expect(waiting.first).toBe("waiting");
      expect(await waiting.claim).toBe("OVER_BALANCE");
    },
  );
});
