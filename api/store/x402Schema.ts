import { sql } from "drizzle-orm";
import { bigint, check, index, integer, numeric, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";
import { appSchema, at, atomicUnits } from "./appSchema";

/**
 * Per-call x402 payments, one row per EIP-3009 authorization: claimed before the work (the primary key
 * makes one request win, across replicas), then settled, failed or pending, or deleted when the answer
 * was not a 2xx (nothing was taken). The id is a hash: the payer's address is never stored.
 */
export const x402Payment = appSchema.table(
  "x402_payment",
  {
    /** SHA-256 of the network, the asset, the payer and the authorization's nonce (`paymentId`). */
    id: text("id").primaryKey(),
    /** The route paid for, as the route list names it (`GET /v1/audit/{address}`). */
    route: text("route").notNull(),
    network: text("network").notNull(),
    asset: text("asset").notNull(),
    /** Atomic units of the asset (USDC: 6 decimals). */
    amount: numeric("amount", { precision: 78, scale: 0, mode: "bigint" }).notNull(),
    /** CLAIMED: being served; SETTLED: the transfer is mined; FAILED: it was refused; PENDING: broadcast, outcome unknown. */
    status: text("status", { enum: ["CLAIMED", "SETTLED", "FAILED", "PENDING"] }).notNull(),
    txHash: text("tx_hash"),
    /** The short reason code of a failed or pending settlement. */
    reason: text("reason"),
    claimedAt: at("claimed_at").notNull(),
    /** When the settlement was mined (SETTLED), refused (FAILED) or left unknown (PENDING). */
    settledAt: at("settled_at"),
    /** The client's payment-identifier id (idempotency key), kept until `retainedUntil`. */
    paymentIdentifier: text("payment_identifier"),
    /** SHA-256 of what was paid for: route, resource path, terms and payer (`paidRequestHash`); an id reused for another is refused. */
    requestHash: text("request_hash"),
    /** The authorization's nonce and end of validity (Unix seconds): how a PENDING settlement is resolved from the chain. */
    nonce: text("nonce"),
    validBefore: numeric("valid_before", { precision: 78, scale: 0, mode: "bigint" }),
    /** The paid answer (JSON `{contentType, body, headers}`), kept for retries until `retainedUntil`. */
    answer: text("answer"),
    /** PAYMENT-RESPONSE of the settled answer (with its signed receipt), served again with it. */
    paymentResponse: text("payment_response"),
    /** Until when the answer and the id are kept (X402_PAYMENT_ID_RETENTION_SECONDS after the claim); null once forgotten. */
    retainedUntil: at("retained_until"),
    /**
     * SHA-256 of the network, the asset and the payer (`payerKey`): what bounds one payer's payments in
     * flight by its balance. Forgotten with the answer.
     */
    payerKey: text("payer_key"),
  },
  (t) => [
    index("x402_payment_settled_idx").on(t.status, t.settledAt),
    uniqueIndex("x402_payment_identifier_idx").on(t.paymentIdentifier),
    index("x402_payment_retained_idx").on(t.retainedUntil),
    index("x402_payment_payer_idx").on(t.payerKey, t.status),
  ],
);

/**
 * x402 batch-settlement channels as `@x402/evm`'s server scheme keeps them (its `Channel`), one row per
 * escrow channel this service receives on: the payer's cumulative vouchers checked off-chain, what was
 * charged, the escrow's state last read. A row is written only once the facilitator verified a deposit
 * into the escrow (or a voucher on a funded channel), so rows are bounded by deposits. Unlike
 * `x402_payment` it holds the payer's address: the channel's configuration is what a claim must present.
 */
export const x402Channel = appSchema.table(
  "x402_channel",
  {
    /** The escrow's channel id (`getChannelId(channelConfig)`), lowercase hex. */
    channelId: text("channel_id").primaryKey(),
    /** The channel's configuration (`ChannelConfig`): addresses as the payer signed them. */
    payer: text("payer").notNull(),
    payerAuthorizer: text("payer_authorizer").notNull(),
    receiver: text("receiver").notNull(),
    receiverAuthorizer: text("receiver_authorizer").notNull(),
    token: text("token").notNull(),
    withdrawDelay: integer("withdraw_delay").notNull(),
    salt: text("salt").notNull(),
    /** Atomic units of the token: charged so far, the latest voucher's cap, the escrow's balance and claims. */
    chargedCumulativeAmount: atomicUnits("charged_cumulative_amount").notNull(),
    signedMaxClaimable: atomicUnits("signed_max_claimable").notNull(),
    signature: text("signature").notNull(),
    balance: atomicUnits("balance").notNull(),
    totalClaimed: atomicUnits("total_claimed").notNull(),
    /** Unix seconds of the payer's timed withdrawal request, 0 when none. */
    withdrawRequestedAt: bigint("withdraw_requested_at", { mode: "number" }).notNull(),
    refundNonce: bigint("refund_nonce", { mode: "number" }).notNull(),
    /** Unix milliseconds: when the escrow's state was last read, and the channel's last request. */
    onchainSyncedAt: bigint("onchain_synced_at", { mode: "number" }),
    lastRequestTimestamp: bigint("last_request_timestamp", { mode: "number" }).notNull(),
    /** The request reserved on the channel, if any (`PendingRequest`): all three set, or none. */
    pendingId: text("pending_id"),
    pendingSignedMaxClaimable: atomicUnits("pending_signed_max_claimable"),
    pendingExpiresAt: bigint("pending_expires_at", { mode: "number" }),
  },
  (t) => [
    check(
      "x402_channel_pending_whole",
      sql`(${t.pendingId} IS NULL) = (${t.pendingSignedMaxClaimable} IS NULL) AND (${t.pendingId} IS NULL) = (${t.pendingExpiresAt} IS NULL)`,
    ),
  ],
);

/**
 * The batch-settlement vouchers accepted, one row per call they paid: written in the transaction that
 * commits the call's charge on its channel (`x402_channel`), before the answer is sent. Keyed by the
 * channel and the voucher's cumulative amount, so no cumulative amount of a channel is accepted twice,
 * whichever replica took it and whatever became of the channel's row since.
 */
export const x402Voucher = appSchema.table(
  "x402_voucher",
  {
    /** The escrow's channel id, lowercase hex (as `x402_channel` keys it). */
    channelId: text("channel_id").notNull(),
    /** The voucher's signed cumulative amount (`maxClaimableAmount`): what the channel has charged with this call. */
    cumulativeAmount: atomicUnits("cumulative_amount").notNull(),
    /** This call's price in atomic units of the channel's token. */
    amount: atomicUnits("amount").notNull(),
    /** The payerAuthorizer's signature of the voucher: with the channel's configuration, what a claim presents. */
    signature: text("signature").notNull(),
    /** The route paid for, as the route list names it. */
    route: text("route").notNull(),
    /** The answer paid for: its status and the SHA-256 of its body, as served. */
    answerStatus: integer("answer_status").notNull(),
    answerSha256: text("answer_sha256").notNull(),
    acceptedAt: at("accepted_at").notNull(),
  },
  // The claim job prunes by age every round.
  (t) => [primaryKey({ columns: [t.channelId, t.cumulativeAmount] }), index("x402_voucher_accepted_idx").on(t.acceptedAt)],
);

/**
 * Who runs a job that one replica at a time runs (the batch-settlement claims): a lease taken by a
 * conditional upsert, held until `expiresAt` and renewed by its holder, so replicas on one Postgres do
 * not send the same claim twice.
 */
export const x402JobLease = appSchema.table("x402_job_lease", {
  name: text("name").primaryKey(),
  /** The replica holding it (a random id per process). */
  holder: text("holder").notNull(),
  expiresAt: at("expires_at").notNull(),
});
