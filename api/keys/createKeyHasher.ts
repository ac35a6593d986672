import { createHmac, createSecretKey } from "node:crypto";
import { fingerprintCredential } from "../access/fingerprintCredential";

/** Hashes a raw API key for storage and lookup. */
export type KeyHasher = (rawKey: string) => string;

/**
 * HMAC-SHA256 of the raw key under the server's pepper, hex. Without the pepper (never stored beside
 * the hashes in Postgres) a copy of the database does not let anyone test guesses. The pepper is made
 * a key object once, not converted on every call (every authenticated request hashes its key).
 */
export function createKeyHasher(pepper: string): KeyHasher {
  const key = createSecretKey(Buffer.from(pepper, "utf8"));
  return (rawKey) => createHmac("sha256", key).update(rawKey).digest("hex");
}

/** `hashKey` of a raw key, given its `fingerprintCredential` when the caller has it. */
export type RememberedKeyHasher = (rawKey: string, fingerprint?: string) => string;

/**
 * `hashKey` remembered for the `maxEntries` raw keys asked for most recently, each under the raw key's
 * fingerprint (`fingerprintCredential`; the least recently asked for is forgotten first): a key's hash
 * never changes, so nothing remembered goes stale, and authenticating a known key costs no HMAC (the
 * HMAC was 3-5% of the price route's time in CPU profiles under load). This memory never keeps a raw
 * key. A caller that has the fingerprint passes it (it must be the raw key's own); else it is
 * computed. Unknown keys are remembered too: a flood of them only makes known keys cost an HMAC again,
 * and the failed-authentication budget bounds it per address.
 */
export function rememberKeyHashes(hashKey: KeyHasher, maxEntries: number): RememberedKeyHasher {
  /** Fingerprint of a raw key → its hash, least recently asked for first. */
  const remembered = new Map<string, string>();
  return (rawKey, fingerprint = fingerprintCredential(rawKey)) => {
    const known = remembered.get(fingerprint);
    if (known !== undefined) {
      remembered.delete(fingerprint);
      remembered.set(fingerprint, known);
      return known;
    }
    const secretHash = hashKey(rawKey);
    remembered.set(fingerprint, secretHash);
    if (remembered.size > maxEntries) remembered.delete(remembered.keys().next().value as string);
    return secretHash;
  };
}
