import { sql } from "drizzle-orm";
import { bigint, check, index, integer, numeric, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";
import { appSchema, at } from "./appSchema";

// The x402 tables (payments, channels, vouchers, leases) have a file of their own; drizzle and the migrations see one schema.
export { appSchema } from "./appSchema";
export * from "./x402Schema";

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
