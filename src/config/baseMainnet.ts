import type { Address } from "viem";
import type { CuratedPool, TokenSpec } from "./indexerEnv";

/** The tracked tokens as Base has them (notes/market.md); each is checked on chain at start. */
export const baseTokens: readonly TokenSpec[] = [
  { symbol: "USDC", address: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913", decimals: 6 },
  { symbol: "WETH", address: "0x4200000000000000000000000000000000000006", decimals: 18 },
  { symbol: "USDT", address: "0xfde4C96c8593536E31F229EA8f37b2ADa2699bb2", decimals: 6 },
  { symbol: "DAI", address: "0x50c5725949A6F0c72E6C4a641F24049A917DB0Cb", decimals: 18 },
  { symbol: "AERO", address: "0x940181a94A35A4569E4529A3CDfB74e38FD98631", decimals: 18 },
  { symbol: "EURC", address: "0x60a3E35Cc302bFA44Cb288Bc5a4F316Fdb1adb42", decimals: 6 },
  { symbol: "cbBTC", address: "0xcbB7C0000aB88B473b1f5aFd9ef808440eed33Bf", decimals: 8 },
  { symbol: "VIRTUAL", address: "0x0b3e328455c4059EEb9e3f84b5543F74E24e7E1b", decimals: 18 },
  { symbol: "DEGEN", address: "0x4ed4E862860beD51a9570b96d89aF5E1B0Efefed", decimals: 18 },
  { symbol: "TOSHI", address: "0xAC1Bd2486aAf3B5C0fc3Fd868558b082a531B2B4", decimals: 18 },
];

/** USDC on Base: the token payments are made in. */
export const baseUsdc: Address = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";

/** WETH on Base (an OP Stack predeploy): what ETH is priced through. */
export const baseWeth: Address = "0x4200000000000000000000000000000000000006";

/** The DEX factories on Base that pools are verified against. */
export const baseFactories = {
  uniswapV2: "0x8909Dc15e40173Ff4699343b6eB8132c65e18eC6",
  uniswapV3: "0x33128a8fC17869897dcE68Ed026d694621f6FDfD",
  aerodrome: "0x420DD381b31aEf6683db6B902084cB0FFECe40Da",
  slipstream: "0x5e7BB104d84c7CB9B682AaC2F3d509f5F406809A",
} as const satisfies Record<string, Address>;

/**
 * Default curated pools on Base: the often-cited deep pools of notes/market.md. Each is verified against
 * its factory at start; re-rank by measured depth and set INDEXER_POOLS for a longer list.
 */
export const baseCuratedPools: readonly CuratedPool[] = [
  { kind: "uniswap-v3", address: "0xd0b53D9277642d899DF5C87A3966A349A798F224" },
  { kind: "slipstream", address: "0xb2cc224c1c9feE385f8ad6a55b4d94E92359DC59" },
  { kind: "aerodrome-volatile", address: "0xcDAC0d6c6C59727a65F871236188350531885C43" },
  { kind: "slipstream", address: "0x4e962BB3889Bf030368F56810A9c96B83CB3E778" },
];

/**
 * Whale thresholds in token units, each about $0.5-1M on Base in 2025: far above the devnet's ordinary
 * traffic (at most $20k) and below its whale transfers (at least $1.5M).
 */
export const defaultWhaleThresholds: Record<string, string> = {
  USDC: "1000000",
  USDT: "1000000",
  DAI: "1000000",
  EURC: "1000000",
  WETH: "300",
  cbBTC: "10",
  AERO: "1000000",
  VIRTUAL: "500000",
  DEGEN: "200000000",
  TOSHI: "2000000000",
};

/** Base produces one block every 2 seconds. */
export const baseBlockTimeSeconds = 2;
