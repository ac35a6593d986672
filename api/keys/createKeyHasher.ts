import { createHmac } from "node:crypto";

/** Hashes a raw API key for storage and lookup. */
export type KeyHasher = (rawKey: string) => string;

/**
 * HMAC-SHA256 of the raw key under the server's pepper, hex. Without the pepper (never stored beside
 * the hashes in Postgres) a copy of the database does not let anyone test guesses.
 */
export function createKeyHasher(pepper: string): KeyHasher {
  return (rawKey) => createHmac("sha256", pepper).update(rawKey).digest("hex");
}
