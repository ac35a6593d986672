/** A Uniswap V4 PoolKey as an ABI tuple. */
const poolKey = {
  name: "key",
  type: "tuple",
  components: [
    { name: "currency0", type: "address" },
    { name: "currency1", type: "address" },
    { name: "fee", type: "uint24" },
    { name: "tickSpacing", type: "int24" },
    { name: "hooks", type: "address" },
  ],
} as const;

/** The V4 position functions' inputs (mintV4, burnV4). */
const v4Position = [
  poolKey,
  { name: "tickLower", type: "int24" },
  { name: "tickUpper", type: "int24" },
  { name: "liquidity", type: "uint128" },
  { name: "salt", type: "bytes32" },
] as const;

const int128Pair = [
  { name: "amount0", type: "int128" },
  { name: "amount1", type: "int128" },
] as const;

/** The devnet's DevnetSwapRouter (devnet/contracts/DevnetSwapRouter.sol): what seeding, traffic and tests call. */
export const devnetSwapRouterAbi = [
  {
    type: "function",
    name: "addLiquidity",
    stateMutability: "nonpayable",
    inputs: [
      { name: "pool", type: "address" },
      { name: "amount0", type: "uint256" },
      { name: "amount1", type: "uint256" },
      { name: "to", type: "address" },
    ],
    outputs: [{ name: "", type: "uint256" }],
  },
  {
    type: "function",
    name: "mintV3",
    stateMutability: "nonpayable",
    inputs: [
      { name: "pool", type: "address" },
      { name: "tickLower", type: "int24" },
      { name: "tickUpper", type: "int24" },
      { name: "liquidity", type: "uint128" },
      { name: "recipient", type: "address" },
    ],
    outputs: [
      { name: "amount0", type: "uint256" },
      { name: "amount1", type: "uint256" },
    ],
  },
  {
    type: "function",
    name: "swapV2",
    stateMutability: "nonpayable",
    inputs: [
      { name: "pool", type: "address" },
      { name: "tokenIn", type: "address" },
      { name: "amountIn", type: "uint256" },
      { name: "minOut", type: "uint256" },
      { name: "to", type: "address" },
    ],
    outputs: [{ name: "amountOut", type: "uint256" }],
  },
  {
    type: "function",
    name: "swapAerodrome",
    stateMutability: "nonpayable",
    inputs: [
      { name: "pool", type: "address" },
      { name: "tokenIn", type: "address" },
      { name: "amountIn", type: "uint256" },
      { name: "minOut", type: "uint256" },
      { name: "to", type: "address" },
    ],
    outputs: [{ name: "amountOut", type: "uint256" }],
  },
  {
    type: "function",
    name: "swapV3",
    stateMutability: "nonpayable",
    inputs: [
      { name: "pool", type: "address" },
      { name: "zeroForOne", type: "bool" },
      { name: "amountIn", type: "uint256" },
      { name: "minOut", type: "uint256" },
      { name: "to", type: "address" },
    ],
    outputs: [{ name: "amountOut", type: "uint256" }],
  },
  {
    type: "function",
    name: "swapV3Exact",
    stateMutability: "nonpayable",
    inputs: [
      { name: "pool", type: "address" },
      { name: "zeroForOne", type: "bool" },
      { name: "exactInput", type: "bool" },
      { name: "amount", type: "uint256" },
      { name: "sqrtPriceLimitX96", type: "uint160" },
      { name: "to", type: "address" },
    ],
    outputs: [
      { name: "amount0", type: "int256" },
      { name: "amount1", type: "int256" },
    ],
  },
  { type: "function", name: "mintV4", stateMutability: "payable", inputs: v4Position, outputs: int128Pair },
  { type: "function", name: "burnV4", stateMutability: "nonpayable", inputs: v4Position, outputs: int128Pair },
  {
    type: "function",
    name: "swapV4",
    stateMutability: "payable",
    inputs: [
      poolKey,
      { name: "zeroForOne", type: "bool" },
      { name: "amountIn", type: "uint256" },
      { name: "minOut", type: "uint256" },
      { name: "to", type: "address" },
    ],
    outputs: [{ name: "amountOut", type: "uint256" }],
  },
  {
    type: "function",
    name: "swapV4Exact",
    stateMutability: "payable",
    inputs: [
      poolKey,
      { name: "zeroForOne", type: "bool" },
      { name: "exactInput", type: "bool" },
      { name: "amount", type: "uint256" },
      { name: "sqrtPriceLimitX96", type: "uint160" },
      { name: "to", type: "address" },
    ],
    outputs: int128Pair,
  },
] as const;
