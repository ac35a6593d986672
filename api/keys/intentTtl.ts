/** How long every intent (free, purchase, recovery challenge) can be claimed or paid: 15 minutes. */
export const intentTtlMs = 15 * 60_000;
