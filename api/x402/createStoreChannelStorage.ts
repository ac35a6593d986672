import type { Channel, ChannelStorage, ChannelUpdateResult } from "@x402/evm/batch-settlement/server";
import type { AppDb } from "../store/createAppStore";
import { changeX402Channel, findX402Channel, listX402Channels, type X402ChannelRow } from "../store/x402ChannelQueries";

/** The package's own code for a channel id that is not 32 bytes of hex (its storages throw it too). */
const invalidChannelId = "invalid_batch_settlement_evm_channel_id_invalid";

/** Channel ids as the package keys them: 32 bytes of hex, lowercase. */
function channelKey(channelId: string): string {
  if (!/^0x[0-9a-fA-F]{64}$/.test(channelId)) throw new Error(invalidChannelId);
  return channelId.toLowerCase();
}

type Address = Channel["channelConfig"]["payer"];

/** Amounts go through BigInt: a decimal that is not a whole number throws instead of being rounded by numeric(78,0). */
function channelRow(channelId: string, channel: Channel): X402ChannelRow {
  const { channelConfig: config, pendingRequest: pending } = channel;
  return {
    channelId,
    payer: config.payer,
    payerAuthorizer: config.payerAuthorizer,
    receiver: config.receiver,
    receiverAuthorizer: config.receiverAuthorizer,
    token: config.token,
    withdrawDelay: config.withdrawDelay,
    salt: config.salt,
    chargedCumulativeAmount: BigInt(channel.chargedCumulativeAmount),
    signedMaxClaimable: BigInt(channel.signedMaxClaimable),
    signature: channel.signature,
    balance: BigInt(channel.balance),
    totalClaimed: BigInt(channel.totalClaimed),
    withdrawRequestedAt: channel.withdrawRequestedAt,
    refundNonce: channel.refundNonce,
    onchainSyncedAt: channel.onchainSyncedAt ?? null,
    lastRequestTimestamp: channel.lastRequestTimestamp,
    pendingId: pending?.pendingId ?? null,
    pendingSignedMaxClaimable: pending ? BigInt(pending.signedMaxClaimable) : null,
    pendingExpiresAt: pending?.expiresAt ?? null,
  };
}

function rowChannel(row: X402ChannelRow): Channel {
  return {
    channelId: row.channelId,
    channelConfig: {
      payer: row.payer as Address,
      payerAuthorizer: row.payerAuthorizer as Address,
      receiver: row.receiver as Address,
      receiverAuthorizer: row.receiverAuthorizer as Address,
      token: row.token as Address,
      withdrawDelay: row.withdrawDelay,
      salt: row.salt as Channel["channelConfig"]["salt"],
    },
    chargedCumulativeAmount: row.chargedCumulativeAmount.toString(),
    signedMaxClaimable: row.signedMaxClaimable.toString(),
    signature: row.signature,
    balance: row.balance.toString(),
    totalClaimed: row.totalClaimed.toString(),
    withdrawRequestedAt: row.withdrawRequestedAt,
    refundNonce: row.refundNonce,
    ...(row.onchainSyncedAt === null ? {} : { onchainSyncedAt: row.onchainSyncedAt }),
    lastRequestTimestamp: row.lastRequestTimestamp,
    ...(row.pendingId === null || row.pendingSignedMaxClaimable === null || row.pendingExpiresAt === null
      ? {}
      : {
          pendingRequest: {
            pendingId: row.pendingId,
            signedMaxClaimable: row.pendingSignedMaxClaimable.toString(),
            expiresAt: row.pendingExpiresAt,
          },
        }),
  };
}

/**
 * `@x402/evm`'s batch-settlement `ChannelStorage` on the app store (table `x402_channel`): the server
 * scheme's channels survive restarts and are shared by every replica on one Postgres, and `updateChannel`
 * is atomic per channel across them (`changeX402Channel`), so two replicas never accept the same
 * cumulative amount twice.
 *
 * @example new BatchSettlementEvmScheme(receiver, { storage: createStoreChannelStorage(store.db) })
 */
export function createStoreChannelStorage(db: AppDb): ChannelStorage {
  return {
    async get(channelId) {
      const row = await findX402Channel(db, channelKey(channelId));
      return row && rowChannel(row);
    },
    async list() {
      return (await listX402Channels(db)).map(rowChannel);
    },
    async updateChannel(channelId, update): Promise<ChannelUpdateResult> {
      const key = channelKey(channelId);
      let next: Channel | undefined;
      const { status } = await changeX402Channel(db, key, (row) => {
        const current = row && rowChannel(row);
        next = update(current);
        if (next === current) return { kind: "keep" };
        return next ? { kind: "write", row: channelRow(key, next) } : { kind: "delete" };
      });
      return { channel: next, status };
    },
  };
}
