/** Aerodrome Slipstream CLFactory: pool lookup by (tokens, tick spacing). */
export const SlipstreamCLFactoryAbi = [
  {
    type: "event",
    name: "PoolCreated",
    inputs: [
      { name: "token0", type: "address", indexed: true },
      { name: "token1", type: "address", indexed: true },
      { name: "tickSpacing", type: "int24", indexed: true },
      { name: "pool", type: "address", indexed: false },
    ],
  },
  {
    type: "function",
    name: "getPool",
    stateMutability: "view",
    inputs: [
      { name: "tokenA", type: "address" },
      { name: "tokenB", type: "address" },
      { name: "tickSpacing", type: "int24" },
    ],
    outputs: [{ name: "", type: "address" }],
  },
] as const;
