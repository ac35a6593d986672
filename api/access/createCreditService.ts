import { creditCycleDays, tierTerms } from "../keys/planCatalogue";
import type { CreditBalance } from "../keys/records";
import type { AppDb } from "../store/createAppStore";
import { type CreditUsageRow, readCreditUsage, spendCredits } from "../store/creditQueries";
import type { KeyInfo } from "../store/keyQueries";

const dayMs = 86_400_000;
const cycleMs = creditCycleDays * dayMs;

export type ChargeOutcome =
  | { ok: true; balance: CreditBalance }
  | { ok: false; reason: "CYCLE_EXHAUSTED" | "DAILY_LIMIT"; balance: CreditBalance };

export type CreditService = {
  /** Where the key's credits stand now (a read; nothing is spent). */
  balance(key: KeyInfo): Promise<CreditBalance>;
  /** Spends `cost` credits atomically, or refuses without spending any. */
  charge(key: KeyInfo, cost: number): Promise<ChargeOutcome>;
};

export type CreateCreditServiceParameters = { db: AppDb; clock: () => Date };

/** Credits per 31-day cycle anchored to the key's issuance, plus the free tier's cap per UTC day. */
export function createCreditService({ db, clock }: CreateCreditServiceParameters): CreditService {
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
      cycleStartedAt: new Date(cycleStart).toISOString(),
      cycleEndsAt: new Date(cycleStart + cycleMs).toISOString(),
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
              resetsAt: new Date((day + 1) * dayMs).toISOString(),
            },
    };
  }

  return {
    async balance(key) {
      return toBalance(key, await readCreditUsage(db, key.id), clock());
    },
    async charge(key, cost) {
      const now = clock();
      const terms = tierTerms[key.tier];
      const spent =
        cost <= terms.creditsPerCycle && cost <= (terms.dailyLimit ?? cost)
          ? await spendCredits(db, {
              keyId: key.id,
              cost,
              ...position(key, now),
              allowance: terms.creditsPerCycle,
              dailyCap: terms.dailyLimit,
            })
          : undefined;
      if (spent) return { ok: true, balance: toBalance(key, spent, now) };
      const balance = toBalance(key, await readCreditUsage(db, key.id), now);
      const reason = balance.daily && balance.daily.remaining < cost && balance.remaining >= cost ? "DAILY_LIMIT" : "CYCLE_EXHAUSTED";
      return { ok: false, reason, balance };
    },
  };
}

/** Credits the key can spend right now: the cycle's remainder, capped by the day's for free keys. */
export function spendableNow(balance: CreditBalance): number {
  return Math.min(balance.remaining, balance.daily?.remaining ?? Number.POSITIVE_INFINITY);
}
