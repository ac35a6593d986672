import { zeroAddress } from "viem";
import { baseUsdc } from "../../base/baseChain";
import type { CuratedPool, CuratedV4Pool } from "./indexerEnv";

/**
 * Default curated pools on Base: four often-cited deep pools. Each is verified against
 * its factory at start; re-rank by measured depth and set INDEXER_POOLS for a longer list.
 */
export const baseCuratedPools: readonly CuratedPool[] = [
  { kind: "uniswap-v3", address: "0xd0b53D9277642d899DF5C87A3966A349A798F224" },
  { kind: "slipstream", address: "0xb2cc224c1c9feE385f8ad6a55b4d94E92359DC59" },
  { kind: "aerodrome-volatile", address: "0xcDAC0d6c6C59727a65F871236188350531885C43" },
  { kind: "slipstream", address: "0x4e962BB3889Bf030368F56810A9c96B83CB3E778" },
];

/**
 * Default curated Uniswap V4 pools on Base: native ETH/USDC at 0.05% without hooks, whose id follows from its
 * key. Verified (initialized, holding a tracked token) at start; set INDEXER_V4_POOLS for others.
 */
export const baseCuratedV4Pools: readonly CuratedV4Pool[] = [
  {
    id: "0x96d4b53a38337a5733179751781178a2613306063c511b78cd02684739288c0a",
    key: { currency0: zeroAddress, currency1: baseUsdc, fee: 500, tickSpacing: 10, hooks: zeroAddress },
  },
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
