const pool = { name: "pool", type: "address" } as const;

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

/** After the pool: an exact-input swap's parameters with a minimum out (V2, Aerodrome take a token in, V3 and V4 a direction). */
const tokenInSwap = [
  { name: "tokenIn", type: "address" },
  { name: "amountIn", type: "uint256" },
  { name: "minOut", type: "uint256" },
  { name: "to", type: "address" },
] as const;
const directedSwap = [
  { name: "zeroForOne", type: "bool" },
  { name: "amountIn", type: "uint256" },
  { name: "minOut", type: "uint256" },
  { name: "to", type: "address" },
] as const;
/** After the pool: an exact input or output, and a price limit (0: none). */
const exactSwap = [
  { name: "zeroForOne", type: "bool" },
  { name: "exactInput", type: "bool" },
  { name: "amount", type: "uint256" },
  { name: "sqrtPriceLimitX96", type: "uint160" },
  { name: "to", type: "address" },
] as const;
const position = [
  { name: "tickLower", type: "int24" },
  { name: "tickUpper", type: "int24" },
  { name: "liquidity", type: "uint128" },
] as const;

const amountOut = [{ name: "amountOut", type: "uint256" }] as const;
const amounts = (type: "uint256" | "int256" | "int128") =>
  [
    { name: "amount0", type },
    { name: "amount1", type },
  ] as const;

/** The devnet's DevnetSwapRouter (devnet/contracts/DevnetSwapRouter.sol): what seeding, traffic and tests call. */
export const devnetSwapRouterAbi = [
  {
    type: "function",
    name: "addLiquidity",
    stateMutability: "nonpayable",
    inputs: [pool, { name: "amount0", type: "uint256" }, { name: "amount1", type: "uint256" }, { name: "to", type: "address" }],
    outputs: [{ name: "", type: "uint256" }],
  },
  {
    type: "function",
    name: "mintV3",
    stateMutability: "nonpayable",
    inputs: [pool, ...position, { name: "recipient", type: "address" }],
    outputs: amounts("uint256"),
  },
  { type: "function", name: "swapV2", stateMutability: "nonpayable", inputs: [pool, ...tokenInSwap], outputs: amountOut },
  { type: "function", name: "swapAerodrome", stateMutability: "nonpayable", inputs: [pool, ...tokenInSwap], outputs: amountOut },
  { type: "function", name: "swapV3", stateMutability: "nonpayable", inputs: [pool, ...directedSwap], outputs: amountOut },
  { type: "function", name: "swapV3Exact", stateMutability: "nonpayable", inputs: [pool, ...exactSwap], outputs: amounts("int256") },
  {
    type: "function",
    name: "mintV4",
    stateMutability: "payable",
    inputs: [poolKey, ...position, { name: "salt", type: "bytes32" }],
    outputs: amounts("int128"),
  },
  {
    type: "function",
    name: "burnV4",
    stateMutability: "nonpayable",
    inputs: [poolKey, ...position, { name: "salt", type: "bytes32" }],
    outputs: amounts("int128"),
  },
  { type: "function", name: "swapV4", stateMutability: "payable", inputs: [poolKey, ...directedSwap], outputs: amountOut },
  { type: "function", name: "swapV4Exact", stateMutability: "payable", inputs: [poolKey, ...exactSwap], outputs: amounts("int128") },
] as const;
