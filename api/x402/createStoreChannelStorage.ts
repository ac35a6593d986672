import type { Channel, ChannelStorage, ChannelUpdateResult } from "@x402/evm/batch-settlement/server";
import type { AppDb } from "../store/createAppStore";
import { isStoreUnavailable } from "../store/isStoreUnavailable";
import {
  changeX402Channel,
  findX402Channel,
  listX402Channels,
  type X402ChannelRow,
  type X402VoucherRow,
} from "../store/x402ChannelQueries";

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

/** A voucher to be stored with the charge of the request reserved under one pending id (`voucherOnCommit`). */
export type VoucherCommit = {
  /** Whether the charge was committed, its voucher stored with it. */
  readonly committed: boolean;
  /** Whether the store was unreachable for a change of its channel while it waited: not the payment's fault. */
  readonly storeFailed: boolean;
  /** Stops waiting for the commit (the request is over either way). */
  dispose(): void;
};

/** The app store's channel storage, and the vouchers it stores with the charges they pay for. */
export type StoreChannelStorage = ChannelStorage & {
  /**
   * Stores `voucherOf(channel)` in the transaction that commits the charge of the request reserved on its
   * channel under `pendingId` (the write that clears that reservation and raises what the channel charged),
   * whichever of the scheme's hooks makes it: a voucher's before settlement, a deposit's after it.
   */
  voucherOnCommit(pendingId: string, channelId: string, voucherOf: (channel: Channel) => X402VoucherRow): VoucherCommit;
};

type PendingCommit = { channelKey: string; voucherOf: (channel: Channel) => X402VoucherRow; committed: boolean; storeFailed: boolean };

/** Whether `next` commits the charge reserved on `current`: the reservation cleared, the amount charged raised. */
const commitsCharge = (current: Channel, next: Channel) =>
  next.pendingRequest === undefined && BigInt(next.chargedCumulativeAmount) > BigInt(current.chargedCumulativeAmount);

/**
 * `@x402/evm`'s batch-settlement `ChannelStorage` on the app store (table `x402_channel`): the server
 * scheme's channels survive restarts and are shared by every replica on one Postgres, and `updateChannel`
 * is atomic per channel across them (`changeX402Channel`), so two replicas never accept the same
 * cumulative amount twice; a charge committed with `voucherOnCommit` stores its voucher (`x402_voucher`)
 * in the same transaction.
 *
 * @example new BatchSettlementEvmScheme(receiver, { storage: createStoreChannelStorage(store.db) })
 */
export function createStoreChannelStorage(db: AppDb): StoreChannelStorage {
  const commits = new Map<string, PendingCommit>();
  return {
    voucherOnCommit(pendingId, channelId, voucherOf) {
      const commit = { channelKey: channelId.toLowerCase(), voucherOf, committed: false, storeFailed: false };
      commits.set(pendingId, commit);
      return {
        get committed() {
          return commit.committed;
        },
        get storeFailed() {
          return commit.storeFailed;
        },
        dispose: () => commits.delete(pendingId),
      };
    },
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
      /** The commit whose voucher this change writes (decided anew on each attempt). */
      let writing: PendingCommit | undefined;
      let status: ChannelUpdateResult["status"];
      /** Whether the channel's row was read (else the store failed before this change could name a commit). */
      let decided = false;
      try {
        ({ status } = await changeX402Channel(db, key, (row) => {
          decided = true;
          const current = row && rowChannel(row);
          next = update(current);
          const commit = current?.pendingRequest && commits.get(current.pendingRequest.pendingId);
          writing = commit && next && current && commitsCharge(current, next) ? commit : undefined;
          if (next === current) return { kind: "keep" };
          if (!next) return { kind: "delete" };
          return { kind: "write", row: channelRow(key, next), ...(writing ? { voucher: writing.voucherOf(next) } : {}) };
        }));
      } catch (error) {
        // The package turns any storage error into a payment refusal: the commit this change was writing learns
        // when it was the store's being unreachable (a cumulative amount stored already stays the payment's
        // fault), or, when the store failed before the row was read, every commit waiting on this channel.
        if (isStoreUnavailable(error)) {
          if (writing) writing.storeFailed = true;
          else if (!decided) for (const commit of commits.values()) if (commit.channelKey === key) commit.storeFailed = true;
        }
        throw error;
      }
      // The transaction committed (it throws otherwise): so did the voucher it wrote.
      if (writing) writing.committed = true;
      return { channel: next, status };
    },
  };
}
