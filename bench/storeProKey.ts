import { generateId } from "../api/keys/apiKeyFormat";
import { createKeyHasher } from "../api/keys/createKeyHasher";
import { mintKeySecret } from "../api/keys/mintKeySecret";
import type { AppDb } from "../api/store/createAppStore";
import { insertKey, type KeyInfo } from "../api/store/keyQueries";

/** Stores a fresh PRO key (31 days, hashed under `pepper`) as a purchase would: its raw secret and record. */
export async function storeProKey(db: AppDb, pepper: string): Promise<{ raw: string; key: KeyInfo }> {
  const secret = mintKeySecret(createKeyHasher(pepper), "test");
  const now = new Date();
  const row = await insertKey(db, {
    id: generateId("key"),
    secretHash: secret.hash,
    tier: "PRO",
    wallet: `0x${"ab".repeat(20)}`,
    issuedAt: now,
    expiresAt: new Date(now.getTime() + 31 * 86_400_000),
    cycleAnchor: now,
  });
  if (!row) throw new Error("key not inserted");
  const { secretHash: _, ...key } = row;
  return { raw: secret.raw, key };
}
