import { describe, expect, test } from "vitest";
import type { X402ClaimPolicy } from "../../api/config";
import type { UnclaimedChannel } from "../../api/store/x402ClaimQueries";
import { claimTrigger } from "../../api/x402/createX402ClaimJob";

const policy: X402ClaimPolicy = { maxVouchers: 10, minAmount: 1_000_000n, maxAgeSeconds: 300, maxClaimsPerBatch: 100 };
const now = new Date("2026-12-02T12:00:00Z");
const secondsAgo = (s: number) => new Date(now.getTime() - s * 1000);
const channel = (vouchers: number, unclaimed: bigint, ageSeconds: number, id = "0x01"): UnclaimedChannel => ({
  channelId: id,
  vouchers,
  unclaimed,
  oldestAcceptedAt: secondsAgo(ageSeconds),
});

describe("claimTrigger: when batch-settlement vouchers are claimed", () => {
  test("behavior: below every bound nothing is claimed; each bound reached alone claims", () => {
    expect(claimTrigger([], false, policy, now)).toBeNull();
    expect(claimTrigger([channel(9, 999_999n, 299)], false, policy, now)).toBeNull();
    // Vouchers and amounts count over all channels.
    expect(claimTrigger([channel(5, 1n, 1), channel(5, 1n, 1, "0x02")], false, policy, now)).toBe("COUNT");
    expect(claimTrigger([channel(1, 500_000n, 1), channel(1, 500_000n, 1, "0x02")], false, policy, now)).toBe("AMOUNT");
    // The oldest voucher of any channel sets the age.
    expect(claimTrigger([channel(1, 1n, 10), channel(1, 1n, 300, "0x02")], false, policy, now)).toBe("AGE");
  });

  test("behavior: a payer's pending withdrawal claims at once, before any bound; with nothing unclaimed there is nothing to claim", () => {
    expect(claimTrigger([channel(1, 1n, 1)], true, policy, now)).toBe("WITHDRAWAL");
    expect(claimTrigger([channel(10, 1_000_000n, 300)], true, policy, now)).toBe("WITHDRAWAL");
    expect(claimTrigger([], true, policy, now)).toBeNull();
  });
});
