import { creditCycleDays, tierTerms } from "../keys/planCatalogue";
import type { CreditBalance } from "../keys/records";
import type { AppDb } from "../store/createAppStore";
import { type CreditUsageRow, readCreditUsage } from "../store/creditQueries";
import type { KeyInfo } from "../store/keyQueries";
import { createCreditLeases } from "./createCreditLeases";

const dayMs = 86_400_000;
const cycleMs = creditCycleDays * dayMs;

/** ISO texts of the cycle and day bounds, which every metered call states and which change once a day. */
const isoTexts = new Map<number, string>();
function isoAt(ms: number): string {
  let text = isoTexts.get(ms);
  if (text === undefined) {
    if (isoTexts.size >= 4096) isoTexts.clear();
    text = new Date(ms).toISOString();
    isoTexts.set(ms, text);
  }
  return text;
}

export type ChargeOutcome =
  | { ok: true; balance: CreditBalance }
  | { ok: false; reason: "CYCLE_EXHAUSTED" | "DAILY_LIMIT"; balance: CreditBalance };

export type CreditService = {
  /** Where the key's credits stand now (a store read; nothing is spent): this replica's unspent lease is not counted as used. */
  balance(key: KeyInfo): Promise<CreditBalance>;
  /** As `balance`, but from this replica's lease alone when it covers `cost` (no store read): the check before a metered call. */
  balanceFor(key: KeyInfo, cost: number): Promise<CreditBalance>;
  /** Spends `cost` credits atomically (from this replica's lease, or the store), or refuses without spending any. */
  charge(key: KeyInfo, cost: number): Promise<ChargeOutcome>;
  /** Gives this replica's unspent leased credits back to the store (a clean shutdown). */
  release(): Promise<void>;
};

export type CreateCreditServiceParameters = {
  db: AppDb;
  clock: () => Date;
  /** Most credits a replica leases per key beyond the call charged (CREDIT_LEASE_MAX); 0: a store write per call. */
  maxLeaseCredits?: number;
};

/**
 * Credits per 31-day cycle anchored to the key's issuance, plus the free tier's cap per UTC day,
 * charged through leases (createCreditLeases): exact across replicas, a store write per lease rather
 * than per call.
 */
export function createCreditService({ db, clock, maxLeaseCredits }: CreateCreditServiceParameters): CreditService {
  const leases = createCreditLeases({ db, maxLeaseCredits });
  function position(key: KeyInfo, now: Date) {
    const cycle = Math.max(0, Math.floor((now.getTime() - key.cycleAnchor.getTime()) / cycleMs));
    return { cycle, day: Math.floor(now.getTime() / dayMs) };
  }

  function toBalance(key: KeyInfo, row: CreditUsageRow | undefined, now: Date): CreditBalance {
    const { cycle, day } = position(key, now);
    const terms = tierTerms[key.tier];
    const used = row && row.cycle >= cycle ? row.used : 0;
    const dayUsed = row && row.day >= day ? row.dayUsed : 0;
    const cycleStart = key.cycleAnchor.getTime() + cycle * cycleMs;
    return {
      cycleStartedAt: isoAt(cycleStart),
      cycleEndsAt: isoAt(cycleStart + cycleMs),
      allowance: terms.creditsPerCycle,
      used,
      remaining: Math.max(0, terms.creditsPerCycle - used),
      daily:
        terms.dailyLimit === null
          ? null
          : {
              limit: terms.dailyLimit,
              used: dayUsed,
              remaining: Math.max(0, terms.dailyLimit - dayUsed),
              resetsAt: isoAt((day + 1) * dayMs),
            },
    };
  }

  async function balance(key: KeyInfo): Promise<CreditBalance> {
    const row = await readCreditUsage(db, key.id);
    return toBalance(key, row && leases.unheld(row), clock());
  }

  return {
    balance,
    async balanceFor(key, cost) {
      const now = clock();
      const leased = leases.covering(key.id, position(key, now).cycle, cost);
      return leased ? toBalance(key, leased, now) : balance(key);
    },
    async charge(key, cost) {
      const now = clock();
      const terms = tierTerms[key.tier];
      const spent =
        cost <= terms.creditsPerCycle && cost <= (terms.dailyLimit ?? cost)
          ? await leases.spend({
              keyId: key.id,
              cost,
              ...position(key, now),
              allowance: terms.creditsPerCycle,
              dailyCap: terms.dailyLimit,
            })
          : undefined;
      if (spent) return { ok: true, balance: toBalance(key, spent, now) };
      const refused = await balance(key);
      const reason = refused.daily && refused.daily.remaining < cost && refused.remaining >= cost ? "DAILY_LIMIT" : "CYCLE_EXHAUSTED";
      return { ok: false, reason, balance: refused };
    },
    release: () => leases.release(),
  };
}

/** Credits the key can spend right now: the cycle's remainder, capped by the day's for free keys. */
export function spendableNow(balance: CreditBalance): number {
  return Math.min(balance.remaining, balance.daily?.remaining ?? Number.POSITIVE_INFINITY);
}
