import { sql } from "drizzle-orm";
import { bigint, check, index, integer, numeric, pgSchema, primaryKey, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

/**
 * The API's own read-write tables. They live in schema `app`: in the shared Postgres beside (never
 * inside) Ponder's schema, or in the API's own PGlite directory.
 */
export const appSchema = pgSchema("app");

const at = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

/**
 * API keys. Only the keyed hash (HMAC-SHA256 with the server's pepper) of the secret is stored, never
 * the secret. Recovery replaces `secretHash` and bumps `secretVersion`; renewal moves `expiresAt`.
 */
export const apiKey = appSchema.table(
  "api_key",
  {
    id: text("id").primaryKey(),
    secretHash: text("secret_hash").notNull(),
    secretVersion: integer("secret_version").notNull().default(1),
    tier: text("tier", { enum: ["FREE", "STARTER", "GROWTH", "PRO"] }).notNull(),
    /** Lowercase address of the wallet that proved ownership (claim signature, payment sender). */
    wallet: text("wallet").notNull(),
    issuedAt: at("issued_at").notNull(),
    /** Null for free keys: they do not expire. */
    expiresAt: at("expires_at"),
    /** Start of the first 31-day credit cycle (the issuance time). */
    cycleAnchor: at("cycle_anchor").notNull(),
    revokedAt: at("revoked_at"),
  },
  (t) => [
    uniqueIndex("api_key_secret_hash_key").on(t.secretHash),
    // One free key per wallet, ever: revoking it does not make room for another.
    uniqueIndex("api_key_one_free_per_wallet").on(t.wallet).where(sql`${t.tier} = 'FREE'`),
    index("api_key_wallet_idx").on(t.wallet),
  ],
);

/**
 * One row whose `epoch` moves with every statement that changes or deletes keys (revocation, a new
 * secret, a new expiry, an operator's SQL alike): a trigger on `api_key` (migration 0002) bumps it in
 * the changing transaction. Each replica caches keys in memory and polls this row (one primary-key
 * read every half second under load): when it moved, the replica drops its cached keys.
 */
export const keyEpoch = appSchema.table(
  "key_epoch",
  {
    id: integer("id").primaryKey(),
    epoch: bigint("epoch", { mode: "number" }).notNull(),
  },
  (t) => [check("key_epoch_one_row", sql`${t.id} = 1`)],
);

/**
 * Signed-challenge intents: a free-key claim, a purchase (terms frozen at creation) or a recovery
 * (target frozen at creation; decoys have none). Consumed at most once. Both indexes cover only
 * unconsumed rows: the purge finds those past their retention by kind and expiry, and the cap on
 * open intents counts a wallet's by expiry.
 */
export const intent = appSchema.table(
  "intent",
  {
    id: text("id").primaryKey(),
    kind: text("kind", { enum: ["FREE", "PURCHASE", "RECOVERY"] }).notNull(),
    wallet: text("wallet").notNull(),
    message: text("message").notNull(),
    createdAt: at("created_at").notNull(),
    expiresAt: at("expires_at").notNull(),
    consumedAt: at("consumed_at"),
    tier: text("tier", { enum: ["STARTER", "GROWTH", "PRO"] }),
    durationDays: integer("duration_days"),
    /** Exact USDC base units (6 decimals) of a purchase. */
    amountUsdc: numeric("amount_usdc", { precision: 78, scale: 0, mode: "bigint" }),
    /** Exact wei of a purchase when a live ETH quote existed; null: ETH is not offered. */
    amountWei: numeric("amount_wei", { precision: 78, scale: 0, mode: "bigint" }),
    /** The key a purchase renews, or the key a recovery replaces (null for a decoy). */
    targetKeyId: text("target_key_id"),
    /** The recovery target's secret version at challenge time: a change means the target changed. */
    targetSecretVersion: integer("target_secret_version"),
  },
  (t) => [
    index("intent_purge_idx").on(t.kind, t.expiresAt).where(sql`${t.consumedAt} IS NULL`),
    index("intent_open_by_wallet_idx").on(t.wallet, t.expiresAt).where(sql`${t.consumedAt} IS NULL`),
  ],
);

/** Redeemed payment transactions: the primary key makes a txHash redeem exactly once, across replicas. */
export const redemption = appSchema.table(
  "redemption",
  {
    txHash: text("tx_hash").primaryKey(),
    intentId: text("intent_id").notNull(),
    keyId: text("key_id").notNull(),
    asset: text("asset", { enum: ["USDC", "ETH"] }).notNull(),
    /** USDC base units or wei. */
    amount: numeric("amount", { precision: 78, scale: 0, mode: "bigint" }).notNull(),
    redeemedAt: at("redeemed_at").notNull(),
  },
  (t) => [uniqueIndex("redemption_intent_id_key").on(t.intentId), index("redemption_key_id_idx").on(t.keyId)],
);

/**
 * Credits spent by a key in its current 31-day cycle, and (for the free tier's daily cap) in the
 * current UTC day. One row per key, changed only by one conditional upsert: never over the allowance.
 */
export const creditUsage = appSchema.table(
  "credit_usage",
  {
    keyId: text("key_id").primaryKey(),
    /** Index of the 31-day cycle since the key's cycle anchor. */
    cycle: integer("cycle").notNull(),
    used: integer("used").notNull(),
    /** UTC day number (days since 1970-01-01). */
    day: integer("day").notNull(),
    dayUsed: integer("day_used").notNull(),
  },
  (t) => [check("credit_usage_used_nonnegative", sql`${t.used} >= 0 AND ${t.dayUsed} >= 0`)],
);

/**
 * Identifier-free daily counters (no key, wallet, address or client: a day, a bucket, a name and a
 * count). `bucket` separates a test deployment's (devnet) counts from production's.
 */
export const dailyCounter = appSchema.table(
  "daily_counter",
  {
    /** UTC date, YYYY-MM-DD. */
    day: text("day").notNull(),
    bucket: text("bucket", { enum: ["production", "test"] })
      .notNull()
      .default("production"),
    name: text("name").notNull(),
    count: bigint("count", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.bucket, t.name] })],
);

/**
 * Health samples, one row per series per sample (the sample time truncated to its interval, so
 * replicas sampling the same minute write one row). Kept for the raw window (24 h), then pruned:
 * `healthRollup` holds the hours beyond it.
 */
export const healthSample = appSchema.table(
  "health_sample",
  {
    series: text("series").notNull(),
    sampledAt: at("sampled_at").notNull(),
    /** UP, DOWN, or NOT_CONFIGURED (left out of availability). */
    state: text("state", { enum: ["UP", "DOWN", "NOT_CONFIGURED"] }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.series, t.sampledAt] })],
);

/** Health samples rolled up per series and UTC hour (written with each sample), pruned after 30 days. */
export const healthRollup = appSchema.table(
  "health_rollup",
  {
    series: text("series").notNull(),
    hour: at("hour").notNull(),
    up: integer("up").notNull(),
    /** Samples that count (UP or DOWN). */
    counted: integer("counted").notNull(),
  },
  (t) => [primaryKey({ columns: [t.series, t.hour] })],
);

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

const atomicUnits = (name: string) => numeric(name, { precision: 78, scale: 0, mode: "bigint" });

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
  (t) => [primaryKey({ columns: [t.channelId, t.cumulativeAmount] })],
);
