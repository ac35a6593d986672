import { randomUUID } from "node:crypto";
import type { BatchSettlementChannelManager, ChannelStorage } from "@x402/evm/batch-settlement/server";
import type { Address } from "viem";
import type { X402ClaimPolicy } from "../config";
import type { AppDb } from "../store/createAppStore";
import {
  listClaimedChannels,
  listUnclaimedChannels,
  pruneClaimedVouchers,
  releaseX402JobLease,
  takeX402JobLease,
  type UnclaimedChannel,
} from "../store/x402ClaimQueries";
import type { EscrowChannel, EscrowState } from "./readEscrowState";

export type X402ClaimJobParameters = {
  db: AppDb;
  /** x402's channel manager on our batch-settlement scheme: it signs, submits and records claims and sweeps. */
  manager: Pick<BatchSettlementChannelManager, "claim" | "settle">;
  /** The scheme's channel storage: a claim found on chain and not in the store is recorded there. */
  channels: Pick<ChannelStorage, "updateChannel">;
  escrow: EscrowState;
  receiver: Address;
  token: Address;
  policy: X402ClaimPolicy;
  /** Claimed vouchers older than this are deleted (X402_PAYMENT_ID_RETENTION_SECONDS). */
  retentionSeconds: number;
  clock?: () => Date;
  log?: (message: string) => void;
};

/**
 * A channel read back for reorgs: since when; the block the round that claimed it read at (the claim was mined
 * after it; for a channel watched since start, its first read); the last block at which a read showed the claim.
 */
type Watch = { since: number; anchorBlock: number | null; confirmedBlock: number | null };

/** What set a claim off. */
export type ClaimTrigger = "WITHDRAWAL" | "COUNT" | "AMOUNT" | "AGE";

/** One round of the claim job. */
export type ClaimRound =
  /** Another replica holds the claim lease. */
  | { kind: "NOT_LEASED" }
  /** The escrow could not be read at evidence grade: nothing was sent; the next round tries again. */
  | { kind: "UNREAD" }
  /**
   * No bound reached (after recording claims found on chain, `reconciled`, and reopening claims a reorg took
   * back, `reorged`).
   */
  | { kind: "WAITING"; vouchers: number; unclaimed: bigint; reconciled: number; reorged: number }
  /** `channels` claimed in `transactions`; `failed`: channels whose claim alone was not mined either (the next round tries again). */
  | {
      kind: "CLAIMED";
      trigger: ClaimTrigger;
      channels: number;
      transactions: string[];
      failed: number;
      reconciled: number;
      reorged: number;
    }
  /** No claim was mined (the next round claims again: a claim at or below what is claimed changes nothing). */
  | { kind: "FAILED"; trigger: ClaimTrigger; error: string };

/** The store brought up to the chain's claims: the channels a claim can take from, and the escrow as read. */
type Reconciled = {
  claimable: UnclaimedChannel[];
  escrow: ReadonlyMap<string, EscrowChannel>;
  withdrawing: boolean;
  reconciled: number;
  reorged: number;
};

/** One round of the sweep that sends what was claimed to the receiver. */
export type SweepRound =
  | { kind: "NOT_LEASED" }
  | { kind: "UNREAD" }
  | { kind: "NOTHING" }
  | { kind: "SWEPT"; amount: bigint; transaction: string }
  | { kind: "FAILED"; error: string };

export type X402ClaimJob = {
  claimOnce(): Promise<ClaimRound>;
  sweepOnce(): Promise<SweepRound>;
  /** Runs the claim round every `claimIntervalSeconds` and the sweep every `sweepIntervalSeconds`, a round at a time. */
  start(intervals: { claimIntervalSeconds: number; sweepIntervalSeconds: number }): void;
  /** Stops the timers, waits for a round under way, and gives the leases up. */
  stop(): Promise<void>;
};

const claimLease = "batch-settlement-claims";
const sweepLease = "batch-settlement-sweep";
/** How long a lease outlives its round: longer than a claim takes to be mined, short enough that a dead holder is replaced soon. */
const leaseSeconds = 120;
/**
 * How long a channel this job claimed is read back each round, so that a claim a reorg took out of the chain
 * is claimed again: past the depth of any reorg seen on Base (its unsafe head is replaced at most a few
 * blocks deep; L1 finality comes within about 15 minutes).
 */
export const reorgWatchSeconds = 900;
/**
 * How many blocks past the one a claim round read at (the claim was mined after it, within its round) a read
 * must be before a claim no read has shown yet counts as gone: a provider a few blocks behind, or a read at a
 * block before the claim's, is not a reorg. 60 s of Base's blocks. Once a read has shown the claim, any read
 * at a later block that does not is a reorg.
 */
export const reorgReadDepthBlocks = 30;

/** `value`, or `cap` when it is more (bigints: Math.min takes numbers only). */
const atMost = (value: bigint, cap: bigint) => (value > cap ? cap : value);

/** A failure's first line, short: viem's messages run to kilobytes of calldata. */
const firstLine = (error: unknown) => (error instanceof Error ? (error.message.split("\n")[0] ?? "") : String(error)).slice(0, 200);

/** The vouchers and the amount unclaimed over all `channels`. */
const unclaimedTotals = (channels: readonly UnclaimedChannel[]) => ({
  vouchers: channels.reduce((n, c) => n + c.vouchers, 0),
  amount: channels.reduce((sum, c) => sum + c.unclaimed, 0n),
});

/** Which bound the unclaimed vouchers reach, if any (a pending withdrawal first: its delay is running). */
export function claimTrigger(
  unclaimed: readonly UnclaimedChannel[],
  withdrawing: boolean,
  policy: X402ClaimPolicy,
  now: Date,
): ClaimTrigger | null {
  if (unclaimed.length === 0) return null;
  if (withdrawing) return "WITHDRAWAL";
  const { vouchers, amount } = unclaimedTotals(unclaimed);
  if (vouchers >= policy.maxVouchers) return "COUNT";
  if (amount >= policy.minAmount) return "AMOUNT";
  const oldest = Math.min(...unclaimed.map((c) => c.oldestAcceptedAt.getTime()));
  return now.getTime() - oldest >= policy.maxAgeSeconds * 1000 ? "AGE" : null;
}

/**
 * batch-settlement's claims and sweeps, run by one replica at a time (a lease in the app store). A claim
 * round reads the unclaimed vouchers from the store and the escrow's state of their channels from the
 * chain: a claim already on chain (sent before a crash, or by another replica) is recorded and not sent
 * again; then, once a bound of the policy is reached or a payer's withdrawal is pending, every unclaimed
 * channel is claimed, in batches, by the channel manager (our receiverAuthorizer signs, the facilitator
 * sends and waits for the receipt). A round that fails is retried by the next. The sweep sends the
 * receiver what the escrow has claimed for it, read from the chain, so it survives restarts too.
 */
export function createX402ClaimJob(p: X402ClaimJobParameters): X402ClaimJob {
  const clock = p.clock ?? (() => new Date());
  const log = p.log ?? ((message: string) => console.warn(message));
  const holder = randomUUID();
  const lease = (name: string) => takeX402JobLease(p.db, name, holder, leaseSeconds);
  /** Channels read back for reorgs (watchedChannels). */
  const watched = new Map<string, Watch>();
  let watchedAfterStart = false;

  /**
   * Records claims the chain holds and the store does not, then the channels a claim can still take from:
   * those whose escrow holds more than they claimed (a payer whose withdrawal finished may have left vouchers
   * above its balance: those are not claimable, and must not sink a claim of the others). Null when no
   * channel could be read.
   */
  async function reconcile(): Promise<Reconciled | null> {
    const listed = await listUnclaimedChannels(p.db);
    const read = [...new Set([...listed.map((c) => c.channelId), ...(await watchedChannels())])];
    if (read.length === 0) return { claimable: [], escrow: new Map(), withdrawing: false, reconciled: 0, reorged: 0 };
    const escrow = await p.escrow.channels(read);
    if (escrow.size === 0) return null;
    if (!watchedAfterStart) watchedAfterStart = escrow.size === read.length;
    let reconciled = 0;
    let reorged = 0;
    for (const channelId of read) {
      const held = escrow.get(channelId);
      if (held === undefined) continue;
      const watch = watched.get(channelId);
      let lowered = false;
      const { status } = await p.channels.updateChannel(channelId, (current) => {
        if (!current) return current;
        const stored = BigInt(current.totalClaimed);
        // The chain's claims are raised to at once; lowered to only where a claim recorded here is gone from it.
        if (held.totalClaimed > stored) return { ...current, totalClaimed: held.totalClaimed.toString() };
        if (watch && held.totalClaimed === stored) watch.confirmedBlock = Math.max(watch.confirmedBlock ?? 0, held.blockNumber);
        if (!watch || held.totalClaimed === stored || !claimGone(watch, held.blockNumber)) return current;
        lowered = true;
        return { ...current, totalClaimed: held.totalClaimed.toString() };
      });
      if (status !== "updated") continue;
      if (!lowered) reconciled++;
      else {
        reorged++;
        watched.delete(channelId);
        log(`[x402] the batch-settlement claim of channel ${channelId} is no longer on chain (a reorg): its vouchers are claimed again`);
      }
    }
    const unclaimed = reconciled + reorged === 0 ? listed : await listUnclaimedChannels(p.db);
    const claimable = unclaimed.flatMap((c) => {
      const held = escrow.get(c.channelId);
      if (!held || held.totalClaimed >= held.balance) return [];
      const left = held.balance - held.totalClaimed;
      return [{ ...c, unclaimed: atMost(c.unclaimed, left) }];
    });
    const withdrawing = claimable.some((c) => escrow.get(c.channelId)?.withdrawalPending);
    return { claimable, escrow, withdrawing, reconciled, reorged };
  }

  /**
   * Whether a watched channel's claim, which a read at `blockNumber` does not show, is gone from the chain: a
   * read past a block at which the claim was seen (a reorg took it out), or, for a claim never seen yet, past
   * reorgReadDepthBlocks after the block its claiming round read at (for a channel watched since start, its
   * first read). A read at or before the block that showed it (a provider behind) lowers nothing.
   */
  function claimGone(watch: Watch, blockNumber: number): boolean {
    watch.anchorBlock ??= blockNumber;
    return watch.confirmedBlock !== null ? blockNumber > watch.confirmedBlock : blockNumber > watch.anchorBlock + reorgReadDepthBlocks;
  }

  /**
   * The channels read back for reorgs: those this job claimed within reorgWatchSeconds, and until one round has
   * read them all after start, every channel the store counts as claimed (a restart forgets what was claimed).
   */
  async function watchedChannels(): Promise<string[]> {
    const now = clock().getTime();
    for (const [id, { since }] of watched) if (now - since > reorgWatchSeconds * 1000) watched.delete(id);
    if (!watchedAfterStart) {
      for (const id of await listClaimedChannels(p.db)) {
        if (!watched.has(id)) watched.set(id, { since: now, anchorBlock: null, confirmedBlock: null });
      }
    }
    return [...watched.keys()];
  }

  /** Claims `targets`, each up to what its escrow holds; the transactions mined and the channels they claimed. */
  async function claim(targets: ReadonlySet<string>, escrow: ReadonlyMap<string, EscrowChannel>) {
    const results = await p.manager.claim({
      maxClaimsPerBatch: p.policy.maxClaimsPerBatch,
      selectClaimChannels: (channels) =>
        channels.flatMap((c) => {
          const id = c.channelId.toLowerCase();
          const held = escrow.get(id);
          if (!targets.has(id) || !held) return [];
          const charged = BigInt(c.chargedCumulativeAmount);
          return [{ ...c, chargedCumulativeAmount: atMost(charged, held.balance).toString() }];
        }),
    });
    const since = clock().getTime();
    for (const id of targets) watched.set(id, { since, anchorBlock: escrow.get(id)?.blockNumber ?? null, confirmedBlock: null });
    return { transactions: results.map((r) => r.transaction), channels: results.reduce((n, r) => n + r.vouchers, 0) };
  }

  async function claimOnce(): Promise<ClaimRound> {
    if (!(await lease(claimLease))) return { kind: "NOT_LEASED" };
    const state = await reconcile();
    if (!state) return { kind: "UNREAD" };
    const { claimable, escrow, withdrawing, reconciled, reorged } = state;
    // A watched channel's vouchers stay: a claim a reorg takes back is sent again from them.
    await pruneClaimedVouchers(p.db, new Date(clock().getTime() - p.retentionSeconds * 1000), [...watched.keys()]);
    const trigger = claimTrigger(claimable, withdrawing, p.policy, clock());
    if (!trigger) {
      const { vouchers, amount } = unclaimedTotals(claimable);
      return { kind: "WAITING", vouchers, unclaimed: amount, reconciled, reorged };
    }
    const targets = new Set(claimable.map((c) => c.channelId));
    try {
      return { kind: "CLAIMED", trigger, ...(await claim(targets, escrow)), failed: 0, reconciled, reorged };
    } catch (error) {
      log(`[x402] a batch-settlement claim was not mined (${trigger}); its channels are claimed one by one: ${firstLine(error)}`);
    }
    // The escrow refuses a whole claim for one bad entry: claimed alone, no channel holds up the others.
    const claimed = { transactions: [] as string[], channels: 0, failed: 0 };
    let lastError = "";
    for (const id of targets) {
      try {
        const one = await claim(new Set([id]), escrow);
        claimed.transactions.push(...one.transactions);
        claimed.channels += one.channels;
      } catch (error) {
        claimed.failed++;
        lastError = firstLine(error);
      }
    }
    if (claimed.channels === 0) return { kind: "FAILED", trigger, error: lastError };
    return { kind: "CLAIMED", trigger, ...claimed, reconciled, reorged };
  }

  async function sweepOnce(): Promise<SweepRound> {
    if (!(await lease(sweepLease))) return { kind: "NOT_LEASED" };
    const amount = await p.escrow.unsettled(p.receiver, p.token);
    if (amount === null) return { kind: "UNREAD" };
    if (amount === 0n) return { kind: "NOTHING" };
    try {
      return { kind: "SWEPT", amount, transaction: (await p.manager.settle()).transaction };
    } catch (error) {
      const message = firstLine(error);
      log(`[x402] claimed batch-settlement funds were not swept to the receiver; the next round tries again: ${message}`);
      return { kind: "FAILED", error: message };
    }
  }

  const timers: NodeJS.Timeout[] = [];
  const running = new Set<Promise<unknown>>();
  /**
   * Runs `round` at once (a process restarted more often than the interval still runs it), then every
   * `seconds` unless the previous one is still going; a round that throws (the store down) is logged and
   * retried by the next.
   */
  const every = (seconds: number, name: string, round: () => Promise<unknown>) => {
    let busy = false;
    const tick = () => {
      if (busy) return;
      busy = true;
      const run = round()
        .catch((error) => log(`[x402] the batch-settlement ${name} round failed: ${firstLine(error)}`))
        .finally(() => {
          busy = false;
          running.delete(run);
        });
      running.add(run);
    };
    const timer = setInterval(tick, seconds * 1000);
    timer.unref();
    timers.push(timer);
    tick();
  };

  return {
    claimOnce,
    sweepOnce,
    start({ claimIntervalSeconds, sweepIntervalSeconds }) {
      if (timers.length > 0) return;
      every(claimIntervalSeconds, "claim", claimOnce);
      every(sweepIntervalSeconds, "sweep", sweepOnce);
    },
    async stop() {
      for (const timer of timers.splice(0)) clearInterval(timer);
      await Promise.allSettled([...running]);
      await Promise.allSettled([releaseX402JobLease(p.db, claimLease, holder), releaseX402JobLease(p.db, sweepLease, holder)]);
    },
  };
}
