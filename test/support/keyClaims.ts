import { verifyMessage } from "viem";
import { type PrivateKeyAccount, privateKeyToAccount } from "viem/accounts";
import { createKeyHasher } from "../../api/keys/createKeyHasher";
import type { WalletVerifier } from "../../api/keys/createWalletVerifier";
import { devnetAccount } from "../../devnet/accounts";

/** The origins the test services and apps serve: the default public one, and a fallback host. */
export const testOrigins = { public: "http://127.0.0.1:42069", fallback: "https://fallback.example" };

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
