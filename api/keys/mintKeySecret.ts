import { generateApiKey, type KeyEnvironment } from "./apiKeyFormat";
import type { KeyHasher } from "./createKeyHasher";

/** A fresh raw key (to show once) and the hash that is stored in its place. */
export function mintKeySecret(hash: KeyHasher, environment: KeyEnvironment): { raw: string; hash: string } {
  const raw = generateApiKey(environment);
  return { raw, hash: hash(raw) };
}
