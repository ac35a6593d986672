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
