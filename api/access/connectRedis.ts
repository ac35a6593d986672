import { Redis } from "ioredis";

/**
 * A Redis client for the shared rate limits. Commands fail fast while it is disconnected (no offline
 * queue), so the limiters fall back to their in-memory insurance instead of waiting; connection
 * errors are left to that fallback rather than crashing the process.
 */
export function connectRedis(url: string): Redis {
  const redis = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
  redis.on("error", () => {});
  return redis;
}
