import { describe, expect, test } from "vitest";
import { claimX402Payment, findX402Payment, recordX402Settlement, resolveX402Settlement } from "../../api/store/x402PaymentQueries";
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
