import type { Address } from "viem";

/** Base mainnet's chain id. */
export const baseChainId = 8453 as const;

/** Base mainnet as a CAIP-2 network id: how payments and records name the chain. */
export const baseNetwork = `eip155:${baseChainId}` as const;

/** Base produces one block every 2 seconds. */
export const baseBlockTimeSeconds = 2;

/** OP Stack predeploys on Base that the service reads or reproduces. */
export const basePredeploys = {
  weth: "0x4200000000000000000000000000000000000006",
  gasPriceOracle: "0x420000000000000000000000000000000000000F",
} as const satisfies Record<string, Address>;

/** Multicall3, at the address it has on every chain (an OP Stack preinstall on Base). */
export const baseMulticall3: Address = "0xcA11bde05977b3631167028862bE2a173976CA11";

/** USDC on Base: the token payments are made in. */
export const baseUsdc: Address = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";

/** WETH on Base (an OP Stack predeploy): what ETH is priced through. */
export const baseWeth: Address = basePredeploys.weth;

/** A token as Base has it: symbol, address and decimals. */
export type BaseToken = { symbol: string; address: Address; decimals: number };

/** The tracked tokens by symbol: the ten the indexer follows and the devnet reproduces. */
export const baseTokens = {
  USDC: { symbol: "USDC", address: baseUsdc, decimals: 6 },
  WETH: { symbol: "WETH", address: baseWeth, decimals: 18 },
  USDT: { symbol: "USDT", address: "0xfde4C96c8593536E31F229EA8f37b2ADa2699bb2", decimals: 6 },
  DAI: { symbol: "DAI", address: "0x50c5725949A6F0c72E6C4a641F24049A917DB0Cb", decimals: 18 },
  AERO: { symbol: "AERO", address: "0x940181a94A35A4569E4529A3CDfB74e38FD98631", decimals: 18 },
  EURC: { symbol: "EURC", address: "0x60a3E35Cc302bFA44Cb288Bc5a4F316Fdb1adb42", decimals: 6 },
  cbBTC: { symbol: "cbBTC", address: "0xcbB7C0000aB88B473b1f5aFd9ef808440eed33Bf", decimals: 8 },
  VIRTUAL: { symbol: "VIRTUAL", address: "0x0b3e328455c4059EEb9e3f84b5543F74E24e7E1b", decimals: 18 },
  DEGEN: { symbol: "DEGEN", address: "0x4ed4E862860beD51a9570b96d89aF5E1B0Efefed", decimals: 18 },
  TOSHI: { symbol: "TOSHI", address: "0xAC1Bd2486aAf3B5C0fc3Fd868558b082a531B2B4", decimals: 18 },
} as const satisfies Record<string, BaseToken>;
