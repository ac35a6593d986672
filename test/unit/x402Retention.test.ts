import { randomUUID } from "node:crypto";
import { describe, expect, test } from "vitest";
import {
  claimX402Payment,
  findX402Payment,
  findX402PaymentByIdentifier,
  forgetRetainedAnswers,
  recordX402Settlement,
} from "../../api/store/x402PaymentQueries";
import { baseNetwork, baseUsdc } from "../../base/baseChain";
import { fileAppStore } from "../support/fileAppStore";

const store = fileAppStore();

describe("retention of paid answers and payment-identifier ids", () => {
  test("behavior: past retained_until a settled or failed payment forgets its answer and id; a pending one and a fresh one keep theirs", async () => {
    const now = new Date("2026-11-23T12:00:00Z");
    const row = (status: "SETTLED" | "FAILED" | "PENDING", retainedUntil: Date) => ({
      id: randomUUID(),
      identifier: `pay_${randomUUID()}`,
      status,
      retainedUntil,
    });
    const rows = [
      row("SETTLED", new Date(now.getTime() - 1_000)),
      row("FAILED", new Date(now.getTime() - 1_000)),
      row("PENDING", new Date(now.getTime() - 1_000)),
      row("SETTLED", new Date(now.getTime() + 1_000)),
    ];
    for (const r of rows) {
      const base = { route: "GET /v1/gas/fees", network: baseNetwork, asset: baseUsdc, amount: 5000n, claimedAt: now };
      expect(await claimX402Payment(store.db, { ...base, id: r.id, paymentIdentifier: r.identifier, retainedUntil: r.retainedUntil })).toBe(
        true,
      );
      await recordX402Settlement(
        store.db,
        { id: r.id, claimedAt: now },
        {
          status: r.status,
          txHash: null,
          reason: null,
          settledAt: now,
          answer: "{}",
          paymentResponse: "x",
        },
      );
    }
    await forgetRetainedAnswers(store.db, now);
    const kept = await Promise.all(
      rows.map(async (r) => [
        (await findX402Payment(store.db, r.id))?.answer ?? null,
        (await findX402PaymentByIdentifier(store.db, r.identifier, now))?.id ?? null,
      ]),
    );
    expect(kept).toEqual([
      [null, null],
      [null, null],
      ["{}", rows[2]?.id],
      ["{}", rows[3]?.id],
    ]);
    // The payment's record stays: a replayed authorization is still known.
    expect((await findX402Payment(store.db, rows[0]?.id as string))?.status).toBe("SETTLED");
  });
});
