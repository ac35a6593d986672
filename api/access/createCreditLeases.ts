import type { AppDb } from "../store/createAppStore";
import { type CreditUsageRow, returnCredits, type SpendCreditsParameters, spendCredits } from "../store/creditQueries";

/** Credits one replica may hold for one key beyond the call it charges (CREDIT_LEASE_MAX's default). */
export const defaultMaxLeaseCredits = 1000;

/** A lease used up within this time doubles the next one's extra credits; one that lasted longer halves it. */
const leaseTargetMs = 1000;

/** A lease not drawn from for this long gives its unspent credits back to the store. */
export const leaseIdleMs = 2000;

/**
 * A lease takes at most this share of what the store had left for the key at the replica's last grant,
 * so near the end of an allowance leases shrink to nothing (a write per call again) and replicas do
 * not hold credits another one needs.
 */
const leaseShareOfRoom = 1 / 16;

/** What one replica holds of one key's cycle. */
type Lease = {
  keyId: string;
  cycle: number;
  /** The key's row as the store returned it at the last grant: its `used` counts `left` as spent. */
  row: CreditUsageRow;
  /** Granted here and not yet drawn: the credits a crash of this replica would lose. */
  left: number;
  /** Extra credits (beyond the call's cost) taken at the last grant. */
  extra: number;
  grantedAt: number;
  lastDrawAt: number;
  /** A grant for the following calls is under way (started when a quarter of the last one was left). */
  refilling?: boolean;
  idleTimer?: NodeJS.Timeout;
};

export type CreditLeases = {
  /**
   * Spends `cost` as `spendCredits` does, from this replica's lease of the key when it covers the cost
   * (no store write), else by one conditional store write that also takes a lease of extra credits for
   * the calls that follow. The row as this replica sees it (its unspent lease not counted as used);
   * undefined when refused.
   */
  spend(p: SpendCreditsParameters): Promise<CreditUsageRow | undefined>;
  /** The row the lease of `keyId` shows (the store's as of the last grant, less what is unspent) when it covers `cost`. */
  covering(keyId: string, cycle: number, cost: number): CreditUsageRow | undefined;
  /** The store's `row` less what this replica holds unspent of it. */
  unheld(row: CreditUsageRow): CreditUsageRow;
  /** Gives every unspent credit back to the store (a clean shutdown). */
  release(): Promise<void>;
};

export type CreateCreditLeasesParameters = {
  db: AppDb;
  /** Most credits held per key beyond the call charged; 0: one store write per charged call. */
  maxLeaseCredits?: number;
  /** Milliseconds, for lease timing only (the credit cycle and day follow the service's clock). */
  now?: () => number;
};

/**
 * Credit leases: a replica takes credits from the store in blocks, within the same conditional upsert
 * that charges a call (never past the allowance, so the credits served by all replicas together never
 * exceed it), and serves the following calls from memory. A lease grows (doubling, up to
 * `maxLeaseCredits` and 1/16 of what the store has left) while leases run out within a second, and
 * shrinks when they last longer; the next one is taken in the background once a quarter of the last
 * is left; a key with a daily cap (free keys) never leases beyond the call. The
 * unspent part goes back to the store after 2 s without a draw, or on `release`; a replica that dies
 * holding a lease loses it (its credits stay counted as used for the cycle).
 */
export function createCreditLeases({
  db,
  maxLeaseCredits = defaultMaxLeaseCredits,
  now = Date.now,
}: CreateCreditLeasesParameters): CreditLeases {
  const leases = new Map<string, Lease>();
  /** Per key: the tail of its queue of store writes (grants and returns run one at a time per key). */
  const queues = new Map<string, Promise<unknown>>();
  /** Per key: calls waiting in that queue, so a grant can take enough for them all. */
  const waiting = new Map<string, number>();

  const view = (lease: Lease): CreditUsageRow => ({
    ...lease.row,
    used: lease.row.used - lease.left,
    dayUsed: lease.row.dayUsed - lease.left,
  });

  function serialize<T>(keyId: string, work: () => Promise<T>): Promise<T> {
    const run = (queues.get(keyId) ?? Promise.resolve()).then(work);
    const tail = run.catch(() => {});
    queues.set(keyId, tail);
    void tail.then(() => queues.get(keyId) === tail && queues.delete(keyId));
    return run;
  }

  function draw(p: SpendCreditsParameters): CreditUsageRow | undefined {
    const lease = leases.get(p.keyId);
    if (!lease || lease.cycle !== p.cycle || lease.left < p.cost || p.dailyCap !== null) return undefined;
    lease.left -= p.cost;
    lease.lastDrawAt = now();
    if (lease.extra > 0 && lease.left <= lease.extra / 4 && !lease.refilling) {
      // The next lease is taken while this one lasts, so a busy key's calls never wait for the store.
      lease.refilling = true;
      serialize(p.keyId, () => grant({ ...p, cost: 0 }))
        .catch(() => {})
        .finally(() => {
          lease.refilling = false;
        });
    }
    return view(lease);
  }

  /** Extra credits the next grant asks for, from how fast the last lease ran out and what the store had left then. */
  function extraFor(p: SpendCreditsParameters, lease: Lease | undefined): number {
    // The first grant of a cycle learns what is left; a capped key takes only what the call costs.
    if (!lease || lease.cycle !== p.cycle || p.dailyCap !== null) return 0;
    const paced = now() - lease.grantedAt < leaseTargetMs ? Math.max(1, 2 * lease.extra) : Math.floor(lease.extra / 2);
    const wanted = Math.max(paced, (waiting.get(p.keyId) ?? 0) * p.cost);
    const room = p.allowance - lease.row.used - p.cost;
    // What is still held counts against the cap: a refill never makes the lease larger than it.
    return Math.max(0, Math.min(wanted, maxLeaseCredits - lease.left, Math.floor(room * leaseShareOfRoom)));
  }

  /** Takes the call's `cost` (0: a refill ahead of the calls) and a lease of extra credits from the store. */
  async function grant(p: SpendCreditsParameters): Promise<CreditUsageRow | undefined> {
    const held = leases.get(p.keyId);
    let extra = extraFor(p, held);
    if (p.cost + extra === 0) return undefined;
    let row = await spendCredits(db, { ...p, cost: p.cost + extra });
    if (!row && extra > 0 && p.cost > 0) {
      // Less is left than the last grant showed (other replicas spent it): the call alone.
      extra = 0;
      row = await spendCredits(db, p);
    }
    if (!row) return undefined;
    const carried = held && held.cycle === p.cycle ? held.left : 0;
    const at = now();
    const lease: Lease = held ?? { keyId: p.keyId, cycle: p.cycle, row, left: 0, extra: 0, grantedAt: at, lastDrawAt: at };
    Object.assign(lease, { cycle: p.cycle, row, left: carried + extra, extra, grantedAt: at, lastDrawAt: at });
    leases.set(p.keyId, lease);
    watchIdle(lease);
    return view(lease);
  }

  function watchIdle(lease: Lease) {
    if (lease.idleTimer) return;
    lease.idleTimer = setTimeout(
      () => {
        lease.idleTimer = undefined;
        if (now() - lease.lastDrawAt < leaseIdleMs) return watchIdle(lease);
        serialize(lease.keyId, () => giveBack(lease)).catch(() => {});
      },
      Math.max(0, lease.lastDrawAt + leaseIdleMs - now()),
    );
    lease.idleTimer.unref();
  }

  /** Forgets `lease` and returns its unspent credits; a store that cannot be reached keeps them counted as used. */
  async function giveBack(lease: Lease) {
    if (leases.get(lease.keyId) !== lease) return;
    leases.delete(lease.keyId);
    clearTimeout(lease.idleTimer);
    const credits = lease.left;
    lease.left = 0;
    if (credits > 0) await returnCredits(db, { keyId: lease.keyId, cycle: lease.cycle, day: lease.row.day, credits });
  }

  return {
    async spend(p) {
      const drawn = draw(p);
      if (drawn) return drawn;
      waiting.set(p.keyId, (waiting.get(p.keyId) ?? 0) + 1);
      return serialize(p.keyId, async () => {
        waiting.set(p.keyId, (waiting.get(p.keyId) ?? 1) - 1);
        if (waiting.get(p.keyId) === 0) waiting.delete(p.keyId);
        return draw(p) ?? grant(p);
      });
    },
    covering(keyId, cycle, cost) {
      const lease = leases.get(keyId);
      return lease && lease.cycle === cycle && lease.left >= cost ? view(lease) : undefined;
    },
    unheld(row) {
      const lease = leases.get(row.keyId);
      return lease && lease.cycle === row.cycle ? { ...row, used: row.used - lease.left, dayUsed: row.dayUsed - lease.left } : row;
    },
    async release() {
      await Promise.all([...leases.values()].map((lease) => serialize(lease.keyId, () => giveBack(lease)).catch(() => {})));
    },
  };
}
