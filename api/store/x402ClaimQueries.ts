import { and, eq, gt, lt, lte, notInArray, or, sql } from "drizzle-orm";
import type { AppDb } from "./createAppStore";
import { x402Channel, x402JobLease, x402Voucher } from "./schema";

/**
 * Takes the lease `name` for `holder` for `seconds`, or renews it: true when `holder` holds it now. A
 * lease held by another replica is taken only once it has expired, so one replica at a time runs the
 * job, and a replica that died holding it is replaced within one lease. Times are the database's own,
 * so the replicas' clocks need not agree.
 */
export async function takeX402JobLease(db: AppDb, name: string, holder: string, seconds: number): Promise<boolean> {
  const until = sql`now() + make_interval(secs => ${seconds})`;
  const taken = await db
    .insert(x402JobLease)
    .values({ name, holder, expiresAt: until })
    .onConflictDoUpdate({
      target: x402JobLease.name,
      set: { holder, expiresAt: until },
      setWhere: or(eq(x402JobLease.holder, holder), lt(x402JobLease.expiresAt, sql`now()`)),
    })
    .returning({ holder: x402JobLease.holder });
  return taken.length === 1;
}

/** Gives the lease `name` up if `holder` holds it, so another replica need not wait for it to expire. */
export async function releaseX402JobLease(db: AppDb, name: string, holder: string): Promise<void> {
  await db.delete(x402JobLease).where(and(eq(x402JobLease.name, name), eq(x402JobLease.holder, holder)));
}

/** A channel with vouchers accepted and not yet claimed on chain (as the store knows its claims). */
export type UnclaimedChannel = {
  channelId: string;
  /** Vouchers accepted above the channel's claimed total. */
  vouchers: number;
  /** When the oldest of them was accepted. */
  oldestAcceptedAt: Date;
  /** What the channel has charged and not claimed, in atomic units of its token. */
  unclaimed: bigint;
};

/** The channels with vouchers above their claimed total, each with the count and age of those vouchers. */
export async function listUnclaimedChannels(db: AppDb): Promise<UnclaimedChannel[]> {
  const rows = await db
    .select({
      channelId: x402Voucher.channelId,
      vouchers: sql<number>`count(*)::int`,
      oldestAcceptedAt: sql<number>`extract(epoch from min(${x402Voucher.acceptedAt}))::float8`,
      unclaimed: sql<string>`max(${x402Channel.chargedCumulativeAmount} - ${x402Channel.totalClaimed})::text`,
    })
    .from(x402Voucher)
    .innerJoin(x402Channel, eq(x402Channel.channelId, x402Voucher.channelId))
    .where(gt(x402Voucher.cumulativeAmount, x402Channel.totalClaimed))
    .groupBy(x402Voucher.channelId);
  return rows.map((r) => ({
    channelId: r.channelId,
    vouchers: Number(r.vouchers),
    oldestAcceptedAt: new Date(Number(r.oldestAcceptedAt) * 1000),
    unclaimed: BigInt(r.unclaimed),
  }));
}

/**
 * The channels whose retained vouchers the store counts as claimed (at or below the channel's claimed
 * total): those whose claim a reorg could have taken back. Bounded by the vouchers' retention.
 */
export async function listClaimedChannels(db: AppDb): Promise<string[]> {
  const rows = await db
    .selectDistinct({ channelId: x402Voucher.channelId })
    .from(x402Voucher)
    .innerJoin(x402Channel, eq(x402Channel.channelId, x402Voucher.channelId))
    .where(and(gt(x402Channel.totalClaimed, 0n), lte(x402Voucher.cumulativeAmount, x402Channel.totalClaimed)));
  return rows.map((r) => r.channelId);
}

/**
 * Deletes the vouchers accepted before `before` that their channel's claims on chain cover (the claim is
 * then the record), or whose channel is gone (refunded and deleted by the scheme): the table keeps what
 * is unclaimed, and the rest for the retention period; those of `keepChannels` stay.
 */
export async function pruneClaimedVouchers(db: AppDb, before: Date, keepChannels: readonly string[] = []): Promise<number> {
  const deleted = await db
    .delete(x402Voucher)
    .where(
      and(
        lt(x402Voucher.acceptedAt, before),
        keepChannels.length > 0 ? notInArray(x402Voucher.channelId, [...keepChannels]) : undefined,
        sql`NOT EXISTS (SELECT 1 FROM ${x402Channel} WHERE ${x402Channel.channelId} = ${x402Voucher.channelId} AND ${x402Channel.totalClaimed} < ${x402Voucher.cumulativeAmount})`,
      ),
    )
    .returning({ channelId: x402Voucher.channelId });
  return deleted.length;
}
