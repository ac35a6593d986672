/** The OP Stack GasPriceOracle predeploy's L1 data-fee views (after Fjord), as Base exposes them. */
export const GasPriceOracleAbi = [
  { type: "function", name: "l1BaseFee", stateMutability: "view", inputs: [], outputs: [{ name: "", type: "uint256" }] },
  { type: "function", name: "blobBaseFee", stateMutability: "view", inputs: [], outputs: [{ name: "", type: "uint256" }] },
  { type: "function", name: "baseFeeScalar", stateMutability: "view", inputs: [], outputs: [{ name: "", type: "uint32" }] },
  { type: "function", name: "blobBaseFeeScalar", stateMutability: "view", inputs: [], outputs: [{ name: "", type: "uint32" }] },
  { type: "function", name: "decimals", stateMutability: "pure", inputs: [], outputs: [{ name: "", type: "uint256" }] },
  {
    type: "function",
    name: "getL1FeeUpperBound",
    stateMutability: "view",
    inputs: [{ name: "_unsignedTxSize", type: "uint256" }],
    outputs: [{ name: "", type: "uint256" }],
  },
] as const;
