import type { Address, Hex } from "viem";
import { bytesToHex } from "viem";
import { mnemonicToAccount } from "viem/accounts";

/** anvil's default mnemonic: its accounts are funded with 10,000 ETH at genesis. */
const anvilMnemonic = "test test test test test test test test test test test junk";

/** How many funded accounts the devnet starts anvil with. */
export const devnetAccountCount = 24;

/** The funded anvil account at `index`, with its private key (devnet only). */
export function devnetAccount(index: number): { address: Address; privateKey: Hex } {
  const account = mnemonicToAccount(anvilMnemonic, { addressIndex: index });
  const key = account.getHdKey().privateKey;
  if (!key) throw new Error(`no private key for devnet account ${index}`);
  return { address: account.address, privateKey: bytesToHex(key) };
}

/**
 * Roles of the funded accounts: 0 deploys, 1 drives traffic, 2 receives payments, 3.. are test users,
 * the account after the last user delegates (EIP-7702), 18 pays the gas of x402 settlements (the in-process
 * facilitator's default key on the devnet), 19 is a second facilitator key for replica tests, 20.. are the
 * facilitator keys of `npm run start:cluster`'s replicas (one gas key per process: nonces are not shared).
 */
export const devnetRoles = {
  deployer: 0,
  traffic: 1,
  payout: 2,
  firstUser: 3,
  x402Facilitator: 18,
  firstReplicaFacilitator: 20,
} as const;
