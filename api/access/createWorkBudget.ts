import { RateLimiterMemory } from "rate-limiter-flexible";

/** Admission of one piece of chain work: refused with the seconds to wait, or admitted until charged. */
export type WorkAdmission = { ok: false; retryAfterSeconds: number } | { ok: true; charge(reads: number): Promise<void> };

/** Chain work (RPC reads) per client bucket per minute, in process memory. */
export type WorkBudget = {
  /**
   * Admits one piece of work for `client` while its budget of this minute is not spent and none of its
   * work is running; the admitted work must be charged (its reads) once done, which frees the client.
   */
  admit(client: string): Promise<WorkAdmission>;
};

/**
 * The budget behind `DEMO_RPC_READS_PER_MINUTE`. A request's reads are known only once its observation
 * is done, so each client runs one piece of work at a time: admitted work is charged before the next is
 * admitted, and a client overshoots its budget by at most one observation (parallel requests would all
 * pass the check before any is charged).
 */
export function createWorkBudget({ readsPerMinute }: { readsPerMinute: number }): WorkBudget {
  const limiter = new RateLimiterMemory({ points: readsPerMinute, duration: 60 });
  const running = new Set<string>();
  return {
    async admit(client) {
      // Taken before any await: a concurrent request of the same client sees it.
      if (running.has(client)) return { ok: false, retryAfterSeconds: 1 };
      running.add(client);
      const used = await limiter.get(client);
      if (used && used.consumedPoints >= readsPerMinute) {
        running.delete(client);
        return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(used.msBeforeNext / 1000)) };
      }
      return {
        ok: true,
        async charge(reads) {
          try {
            await limiter.penalty(client, reads);
          } finally {
            running.delete(client);
          }
        },
      };
    },
  };
}
