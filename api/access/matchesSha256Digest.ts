import { createHash, timingSafeEqual } from "node:crypto";

/**
 * Whether `secret` hashes (SHA-256) to `digest`, compared in constant time on the fixed-length
 * digests; false when no digest is configured. The secret itself is only hashed, in memory.
 */
export function matchesSha256Digest(secret: string, digest: Buffer | undefined): boolean {
  if (digest?.length !== 32) return false;
  return timingSafeEqual(createHash("sha256").update(secret).digest(), digest);
}
