import type { Channel } from "@x402/evm/batch-settlement/server";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createStoreChannelStorage } from "../../api/x402/createStoreChannelStorage";
import { type Backend, backendNames, openBackend } from "../access/support";

const channelId = (n: number) => `0x${n.toString(16).padStart(64, "0")}`;
/** 2^256 - 1: the largest amount the escrow's arithmetic could ever hold, 78 digits. */
const maxUint256 = (2n ** 256n - 1n).toString();

/** A channel as the package's server scheme writes one (addresses as the payer signed them, checksummed). */
function channel(id: string, overrides: Partial<Channel> = {}): Channel {
  return {
    channelId: id,
    channelConfig: {
      payer: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
      payerAuthorizer: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
      receiver: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
      receiverAuthorizer: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
      token: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
      withdrawDelay: 86_400,
      salt: `0x${"ab".repeat(32)}`,
    },
    chargedCumulativeAmount: "0",
    signedMaxClaimable: "5000",
    signature: `0x${"11".repeat(65)}`,
    balance: "50000",
    totalClaimed: "0",
    withdrawRequestedAt: 0,
    refundNonce: 0,
    lastRequestTimestamp: 1_795_845_529_612,
    ...overrides,
  };
}

describe.each(backendNames)("x402 batch-settlement channels in the app store on %s", (backendName) => {
  let backend: Backend;
  beforeAll(async () => {
    backend = await openBackend(backendName);
  });
  afterAll(() => backend?.close());

  test("default: get, list and updateChannel keep the package's Channel as it was written", async () => {
    const storage = createStoreChannelStorage(backend.store.db);
    const id = channelId(1);
    expect(await storage.get(id)).toBeUndefined();
    const written = channel(id, {
      onchainSyncedAt: 1_795_845_529_000,
      pendingRequest: { pendingId: "pending-1", signedMaxClaimable: "10000", expiresAt: 1_795_845_829_612 },
    });
    expect(await storage.updateChannel(id, () => written)).toEqual({ channel: written, status: "updated" });
    expect(await storage.get(id)).toEqual(written);
    // Upper-case hex names the same channel, as the package's storages key it.
    expect(await storage.get(id.toUpperCase().replace("0X", "0x"))).toEqual(written);

    const { pendingRequest: _, ...settled } = { ...written, chargedCumulativeAmount: "5000" };
    expect((await storage.updateChannel(id, (current) => current && { ...settled, signature: current.signature })).status).toBe("updated");
    expect(await storage.get(id)).toEqual(settled);
    expect(await storage.list()).toEqual([settled]);
  });

  test("behavior: returning current is unchanged, undefined deletes, and a missing channel stays missing", async () => {
    const storage = createStoreChannelStorage(backend.store.db);
    const id = channelId(2);
    await storage.updateChannel(id, () => channel(id));
    const kept = await storage.updateChannel(id, (current) => current);
    expect(kept).toEqual({ channel: channel(id), status: "unchanged" });
    expect(await storage.updateChannel(id, () => undefined)).toEqual({ channel: undefined, status: "deleted" });
    expect(await storage.get(id)).toBeUndefined();
    expect(await storage.updateChannel(id, () => undefined)).toEqual({ channel: undefined, status: "unchanged" });
    expect(await storage.updateChannel(id, (current) => current)).toEqual({ channel: undefined, status: "unchanged" });
    expect((await storage.list()).map((c) => c.channelId)).not.toContain(id);
  });

  test("behavior: amounts are exact beyond 2^53, up to 2^256 - 1", async () => {
    const storage = createStoreChannelStorage(backend.store.db);
    const id = channelId(3);
    const big = channel(id, {
      chargedCumulativeAmount: (2n ** 53n + 1n).toString(),
      signedMaxClaimable: maxUint256,
      balance: maxUint256,
      totalClaimed: (2n ** 128n - 1n).toString(),
      pendingRequest: { pendingId: "p", signedMaxClaimable: maxUint256, expiresAt: 1 },
    });
    await storage.updateChannel(id, () => big);
    expect(await storage.get(id)).toEqual(big);
    const [row] = await backend.sql("SELECT balance::text AS balance FROM app.x402_channel WHERE channel_id = $1", [id]);
    expect(row).toEqual({ balance: maxUint256 });
  });

  test("error: a fractional amount is refused, not rounded, and the stored channel is left as it was", async () => {
    const storage = createStoreChannelStorage(backend.store.db);
    const id = channelId(4);
    await storage.updateChannel(id, () => channel(id));
    await expect(storage.updateChannel(id, (current) => current && { ...current, chargedCumulativeAmount: "1.5" })).rejects.toThrow();
    expect(await storage.get(id)).toEqual(channel(id));
    await expect(storage.get("0x1234")).rejects.toThrow("invalid_batch_settlement_evm_channel_id_invalid");
  });

  test("behavior: 50 concurrent charges from two replicas, starting from no channel, add up exactly (no lost update)", async () => {
    const replicas = [createStoreChannelStorage(backend.replica(1).db), createStoreChannelStorage(backend.replica(2).db)];
    const id = channelId(5);
    const price = 2n ** 60n + 5_000n;
    const calls = 50;
    const results = await Promise.all(
      Array.from({ length: calls }, (_, i) =>
        replicas[i % 2]?.updateChannel(id, (current) =>
          current
            ? { ...current, chargedCumulativeAmount: (BigInt(current.chargedCumulativeAmount) + price).toString() }
            : channel(id, { chargedCumulativeAmount: price.toString() }),
        ),
      ),
    );
    // Every call saw a distinct cumulative amount: none accepted one another already had.
    const seen = new Set(results.map((r) => r?.channel?.chargedCumulativeAmount));
    expect(seen.size).toBe(calls);
    expect((await replicas[0]?.get(id))?.chargedCumulativeAmount).toBe((price * BigInt(calls)).toString());
  });

  test("behavior: a committed charge stores its voucher in the same transaction; a cumulative amount stored before rolls the charge back", async () => {
    const storage = createStoreChannelStorage(backend.store.db);
    const id = channelId(6);
    const reserved = (pendingId: string) =>
      channel(id, { chargedCumulativeAmount: "5000", pendingRequest: { pendingId, signedMaxClaimable: "10000", expiresAt: 2e12 } });
    const voucherOf = (c: Channel) => ({
      channelId: c.channelId,
      cumulativeAmount: BigInt(c.signedMaxClaimable),
      amount: 5_000n,
      signature: c.signature,
      route: "GET /v1/gas/fees",
      answerStatus: 200,
      answerSha256: `0x${"00".repeat(32)}`,
      acceptedAt: new Date(),
    });
    const charge = (current: Channel | undefined) => {
      const { pendingRequest: _, ...rest } = current as Channel;
      return { ...rest, chargedCumulativeAmount: "10000", signedMaxClaimable: "10000" };
    };
    const vouchers = () => backend.sql("SELECT cumulative_amount::text FROM app.x402_voucher WHERE channel_id = $1", [id]);

    // A write that does not commit the reserved charge (the reservation stays) stores no voucher.
    await storage.updateChannel(id, () => reserved("first"));
    const first = storage.voucherOnCommit("first", id, voucherOf);
    await storage.updateChannel(id, (current) => current && { ...current, lastRequestTimestamp: 1 });
    expect(first.committed).toBe(false);
    expect(await vouchers()).toEqual([]);
    // The charge that clears it does, in its transaction.
    await storage.updateChannel(id, charge);
    expect(first.committed).toBe(true);
    first.dispose();
    expect(await vouchers()).toEqual([{ cumulative_amount: "10000" }]);

    // The same cumulative amount charged again (a channel's row lost and rebuilt, say): refused by the stored voucher.
    await storage.updateChannel(id, () => reserved("second"));
    const second = storage.voucherOnCommit("second", id, voucherOf);
    await expect(storage.updateChannel(id, charge)).rejects.toThrow();
    expect(second.committed).toBe(false);
    // A cumulative amount stored already is the payment's fault, not the store's.
    expect(second.storeFailed).toBe(false);
    expect((await storage.get(id))?.pendingRequest?.pendingId).toBe("second");
    expect(await vouchers()).toEqual([{ cumulative_amount: "10000" }]);
  });
});
