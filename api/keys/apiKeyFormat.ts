import { randomBytes } from "node:crypto";
import { encodeBase58 } from "./base58";

/** `live` keys are issued on Base mainnet, `test` keys on the devnet: one never passes for the other. */
export type KeyEnvironment = "live" | "test";

/** `svc_live_` or `svc_test_`, then base58 of 32 random bytes (43 or 44 characters). */
export const apiKeyPattern = /^svc_(live|test)_[1-9A-HJ-NP-Za-km-z]{40,44}$/;

/** A new raw API key of `environment`: 256 bits from the OS's CSPRNG. */
export function generateApiKey(environment: KeyEnvironment): string {
  return `svc_${environment}_${encodeBase58(randomBytes(32))}`;
}

/** A new public identifier (`key_`, `int_`...): 96 random bits, hex. */
export function generateId(prefix: string): string {
  return `${prefix}_${randomBytes(12).toString("hex")}`;
}
