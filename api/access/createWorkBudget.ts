import { RateLimiterMemory } from "rate-limiter-flexible";

/** Chain work (RPC reads) per client bucket per minute, in process memory. */
export type WorkBudget = {
  /** Seconds until `client` may start more work; 0 while its budget of this minute is not spent. */
  retryAfterSeconds(client: string): Promise<number>;
  /** Charges `reads` to `client`: known only once the work is done, so one request may overshoot. */
  spend(client: string, reads: number): Promise<void>;
};

/**
 * The budget behind `DEMO_RPC_READS_PER_MINUTE`: a request is admitted while its client has reads left
 * this minute and charged what its observation read afterwards, so a client asking for heavy contracts
 * at each new block (every block an observation cache miss) is held to a bounded amount of chain work.
 */
export function createWorkBudget({ readsPerMinute }: { readsPerMinute: number }): WorkBudget {
  const limiter = new RateLimiterMemory({ points: readsPerMinute, duration: 60 });
  return {
    async retryAfterSeconds(client) {
      const used = await limiter.get(client);
      return used && used.consumedPoints >= readsPerMinute ? Math.max(1, Math.ceil(used.msBeforeNext / 1000)) : 0;
    },
    async spend(client, reads) {
      await limiter.penalty(client, reads);
    },
  };
}
