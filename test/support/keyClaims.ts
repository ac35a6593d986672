import { verifyMessage } from "viem";
import { type PrivateKeyAccount, privateKeyToAccount } from "viem/accounts";
import type { ChallengeServiceParameters } from "../../api/keys/challenges";
import { createKeyHasher } from "../../api/keys/createKeyHasher";
import type { WalletVerifier } from "../../api/keys/createWalletVerifier";
import { catalogueRates } from "../../api/keys/toIssuedKey";
import { type CounterBucket, readDailyCounts } from "../../api/store/countDaily";
import type { AppDb } from "../../api/store/createAppStore";
import { devnetAccount } from "../../devnet/accounts";

/** The origins the test services and apps serve: the default public one, and a fallback host. */
export const testOrigins = { public: "http://127.0.0.1:42069", fallback: "https://fallback.example" };

export const minuteMs = 60_000;
export const dayMs = 86_400_000;
/** When the key services' tests issue their challenges and intents: mid-afternoon UTC, with milliseconds. */
export const t0 = new Date("2026-03-10T15:20:30.250Z");

/** The notice every newly issued key carries (free, bought or recovered). */
export const newKeyNotice =
  "Store this API key now: it is shown once and cannot be shown again. Send it in x-api-key or Authorization: Bearer, never in a URL.";

/** The API key pepper of the test services and apps. */
export const testPepper = "test-pepper-0123456789abcdef0123456789abcdef";

/** The real key hasher under the test pepper. */
export const testKeyHasher = createKeyHasher(testPepper);

const anvilAccounts = new Map<number, PrivateKeyAccount>();

/**
 * Anvil's well-known development account `index` (its default mnemonic) as a local signer. Deriving
 * one takes tens of milliseconds, so each is derived when first asked for, once per test file.
 */
export function anvilAccount(index: number): PrivateKeyAccount {
  let account = anvilAccounts.get(index);
  if (!account) {
    account = privateKeyToAccount(devnetAccount(index).privateKey);
    anvilAccounts.set(index, account);
  }
  return account;
}

/**
 * The wallet check for EOAs. The real createWalletVerifier settles a valid EOA signature locally, but
 * asks a provider (the ERC-6492 validator, in an eth_call) about any signature that does not recover
 * to the address, a wrong signer's included; with no provider that answer is UNAVAILABLE. This one
 * applies viem's verifyMessage locally, which is what the chain answers for an EOA.
 */
export const eoaWallets: WalletVerifier = {
  async verify({ address, message, signature }) {
    const valid = await verifyMessage({ address, message, signature }).catch(() => false);
    return valid ? { status: "VALID" } : { status: "INVALID" };
  },
};

/**
 * What the services of signed challenges (free keys, purchases, recovery) are built from in a fast
 * test: `db`, the test origins, the EOA check, the real hasher, test keys, `clock`, the catalogue's
 * rates and no practical cap on open intents. A test overrides the parts it is about.
 */
export function challengeServiceParameters(db: AppDb, clock: () => Date): ChallengeServiceParameters {
  return {
    db,
    origins: testOrigins,
    wallets: eoaWallets,
    hash: testKeyHasher,
    environment: "test",
    clock,
    maxOpenIntentsPerWallet: 1_000_000,
    rates: catalogueRates,
  };
}

/** The identifier-free daily counters of `bucket` on `day` (YYYY-MM-DD), by name. */
export async function countersOn(db: AppDb, day: string, bucket: CounterBucket = "test"): Promise<Record<string, number>> {
  const rows = await readDailyCounts(db, bucket, day, day);
  return Object.fromEntries(rows.map((r) => [r.name, r.count]));
}

/** A clock a test sets: services read it through `now`. */
export function settableClock(start: Date) {
  let at = start.getTime();
  return {
    now: () => new Date(at),
    set(to: Date | number) {
      at = typeof to === "number" ? to : to.getTime();
    },
  };
}

/**
 * The Sign-In with Ethereum text a challenge asks `wallet` (checksummed) to sign, written out line by
 * line as EIP-4361 lays it out, so a test compares the service's message with the standard, not with
 * the service's own builder. `origin` is a scheme and host: its host is the domain.
 */
export function challengeText(p: { origin: string; wallet: string; statement: string; intentId: string; issuedAt: Date; expiresAt: Date }) {
  return [
    `${new URL(p.origin).host} wants you to sign in with your Ethereum account:`,
    p.wallet,
    "",
    p.statement,
    "",
    `URI: ${p.origin}`,
    "Version: 1",
    "Chain ID: 8453",
    `Nonce: ${p.intentId.slice(4)}`,
    `Issued At: ${p.issuedAt.toISOString()}`,
    `Expiration Time: ${p.expiresAt.toISOString()}`,
    `Request ID: ${p.intentId}`,
  ].join("\n");
}
