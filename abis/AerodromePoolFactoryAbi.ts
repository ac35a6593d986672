/** Aerodrome v2 pool factory: pool creation and lookup by (tokens, stable). */
export const AerodromePoolFactoryAbi = [
  {
    type: "event",
    name: "PoolCreated",
    inputs: [
      { name: "token0", type: "address", indexed: true },
      { name: "token1", type: "address", indexed: true },
      { name: "stable", type: "bool", indexed: true },
      { name: "pool", type: "address", indexed: false },
      // Unnamed on mainnet; a name does not change topic0 and gives decoded args named fields.
      { name: "allPoolsLength", type: "uint256", indexed: false },
    ],
  },
  {
    type: "function",
    name: "getPool",
    stateMutability: "view",
    inputs: [
      { name: "tokenA", type: "address" },
      { name: "tokenB", type: "address" },
      { name: "stable", type: "bool" },
    ],
    outputs: [{ name: "", type: "address" }],
  },
  {
    type: "function",
    name: "isPool",
    stateMutability: "view",
    inputs: [{ name: "pool", type: "address" }],
    outputs: [{ name: "", type: "bool" }],
  },
] as const;
