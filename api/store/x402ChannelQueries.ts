import { asc, eq } from "drizzle-orm";
import type { AppDb } from "./createAppStore";
import { x402Channel, x402Voucher } from "./schema";

export type X402ChannelRow = typeof x402Channel.$inferSelect;
export type X402VoucherRow = typeof x402Voucher.$inferSelect;

/**
 * What a change of one channel's row decides, given the row as it is: keep it, delete it, or write this
 * one, with the voucher a call was charged for when the write commits that charge.
 */
export type X402ChannelChange = { kind: "keep" } | { kind: "delete" } | { kind: "write"; row: X402ChannelRow; voucher?: X402VoucherRow };

export type ChangeX402ChannelReturnType = {
  /** The row as it stands once the change is committed. */
  row: X402ChannelRow | undefined;
  status: "updated" | "unchanged" | "deleted";
};

/** The channel's row, or undefined when the store holds none. */
export async function findX402Channel(db: AppDb, channelId: string): Promise<X402ChannelRow | undefined> {
  const [row] = await db.select().from(x402Channel).where(eq(x402Channel.channelId, channelId));
  return row;
}

/** Every channel's row, by channel id. */
export function listX402Channels(db: AppDb): Promise<X402ChannelRow[]> {
  return db.select().from(x402Channel).orderBy(asc(x402Channel.channelId));
}

/** Another transaction created the channel's row between this one's read and its insert. */
class ChannelCreatedConcurrently extends Error {}

/** How many times a change of a channel created concurrently on another connection starts over. */
const createAttempts = 3;

/**
 * Reads one channel's row and applies what `decide` makes of it, atomically across replicas: the row is
 * read `FOR UPDATE` in a transaction, so a concurrent change of the same channel (on any connection)
 * waits for this one's commit and then reads its result. A row that does not exist yet cannot be
 * locked: two transactions may both find none, and the primary key lets one insert; the other starts
 * over and calls `decide` again on the row now there (at most `createAttempts` times: only a delete between
 * the attempts could make a third). (PGlite runs one transaction at a time.) A write's voucher is inserted
 * in the same transaction: the charge and its voucher are stored together or not at all.
 */
export async function changeX402Channel(
  db: AppDb,
  channelId: string,
  decide: (current: X402ChannelRow | undefined) => X402ChannelChange,
): Promise<ChangeX402ChannelReturnType> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction(async (tx) => {
        const [current] = await tx.select().from(x402Channel).where(eq(x402Channel.channelId, channelId)).for("update");
        const change = decide(current);
        if (change.kind === "keep") return { row: current, status: "unchanged" };
        if (change.kind === "delete") {
          if (!current) return { row: undefined, status: "unchanged" };
          await tx.delete(x402Channel).where(eq(x402Channel.channelId, channelId));
          return { row: undefined, status: "deleted" };
        }
        const row = { ...change.row, channelId };
        if (current) {
          await tx.update(x402Channel).set(row).where(eq(x402Channel.channelId, channelId));
        } else {
          const inserted = await tx.insert(x402Channel).values(row).onConflictDoNothing().returning({ id: x402Channel.channelId });
          if (inserted.length === 0) throw new ChannelCreatedConcurrently();
        }
        // Its primary key refuses a cumulative amount accepted before: the charge is then rolled back with it.
        if (change.voucher) await tx.insert(x402Voucher).values(change.voucher);
        return { row, status: "updated" };
      });
    } catch (error) {
      if (!(error instanceof ChannelCreatedConcurrently) || attempt === createAttempts) throw error;
    }
  }
}
