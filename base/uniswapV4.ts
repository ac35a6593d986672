import { type Address, bytesToHex, type Hex, hexToBytes, isAddress, keccak256, numberToHex } from "viem";

/** Uniswap V4's PoolManager on Base: the singleton that holds every V4 pool (the devnet installs its fixture here). */
export const baseUniswapV4PoolManager: Address = "0x498581fF718922c3f8e6A244956aF099B2652b2b";

/** A V4 pool's identity. Currency address(0) is native ETH; the hooks' low 14 address bits are its permissions. */
export type UniswapV4PoolKey = { currency0: Address; currency1: Address; fee: number; tickSpacing: number; hooks: Address };

/** A 32-byte word of `n`, and of a signed `n` in two's complement (as abi.encode lays out an int24). */
const word = (n: bigint): Hex => numberToHex(n, { size: 32 });
const signedKey = (n: number): Hex => numberToHex(BigInt.asUintN(256, BigInt(n)), { size: 32 });

/**
 * The pool id: keccak256(abi.encode(PoolKey)), as V4's PoolIdLibrary computes it. Built on bytes (viem's
 * encodeAbiParameters goes through hex strings): the trade simulation derives a token's V4 ids per request.
 */
export function uniswapV4PoolId(key: UniswapV4PoolKey): Hex {
  if (!Number.isInteger(key.fee) || key.fee < 0 || key.fee >= 2 ** 24) throw new Error(`not a V4 fee: ${key.fee}`);
  if (!Number.isInteger(key.tickSpacing) || key.tickSpacing < -(2 ** 23) || key.tickSpacing >= 2 ** 23) {
    throw new Error(`not a V4 tick spacing: ${key.tickSpacing}`);
  }
  for (const address of [key.currency0, key.currency1, key.hooks]) {
    if (!isAddress(address, { strict: false })) throw new Error(`not an address: ${address}`);
  }
  const words = new Uint8Array(160);
  words.set(hexToBytes(key.currency0), 12);
  words.set(hexToBytes(key.currency1), 44);
  words.set(hexToBytes(word(BigInt(key.fee))), 64);
  words.set(hexToBytes(signedKey(key.tickSpacing)), 96);
  words.set(hexToBytes(key.hooks), 140);
  return bytesToHex(keccak256(words, "bytes"));
}

/** Hook permission bits (V4's Hooks.sol): the flags set in the low bits of a hooks contract's address. */
export const uniswapV4HookFlags = {
  beforeInitialize: 1 << 13,
  afterInitialize: 1 << 12,
  beforeAddLiquidity: 1 << 11,
  afterAddLiquidity: 1 << 10,
  beforeRemoveLiquidity: 1 << 9,
  afterRemoveLiquidity: 1 << 8,
  beforeSwap: 1 << 7,
  afterSwap: 1 << 6,
  beforeDonate: 1 << 5,
  afterDonate: 1 << 4,
  beforeSwapReturnsDelta: 1 << 3,
  afterSwapReturnsDelta: 1 << 2,
  afterAddLiquidityReturnsDelta: 1 << 1,
  afterRemoveLiquidityReturnsDelta: 1 << 0,
} as const;

/** The flags with which a hook can change what a swap pays or receives. */
export const uniswapV4SwapAffectingHookFlags =
  uniswapV4HookFlags.beforeSwap |
  uniswapV4HookFlags.afterSwap |
  uniswapV4HookFlags.beforeSwapReturnsDelta |
  uniswapV4HookFlags.afterSwapReturnsDelta;

/** A key's fee with this value marks a dynamic fee, set by the hook (V4's LPFeeLibrary.DYNAMIC_FEE_FLAG). */
export const uniswapV4DynamicFeeFlag = 0x800000;

/** Where `_pools` sits in the PoolManager (V4's StateLibrary.POOLS_SLOT), and its fields' offsets in Pool.State. */
const poolsSlot = 6n;
const liquidityOffset = 3n;
const ticksOffset = 4n;
const tickBitmapOffset = 5n;

/** keccak256(key ++ slot): a Solidity mapping's slot of `key`, built on bytes. */
function mappingSlot(key: Hex, slot: bigint): Hex {
  const input = new Uint8Array(64);
  input.set(hexToBytes(key), 0);
  input.set(hexToBytes(word(slot)), 32);
  return bytesToHex(keccak256(input, "bytes"));
}

/**
 * The PoolManager's storage slots of one pool, as V4's StateLibrary computes them for `extsload`: slot0
 * (sqrtPriceX96 in the low 160 bits, then tick, protocol fee and LP fee, 24 bits each), the in-range
 * liquidity (low 128 bits), a tick's first word (liquidityGross low 128 bits, liquidityNet high 128,
 * signed) and a tick bitmap word.
 */
export function uniswapV4PoolSlots(poolId: Hex) {
  const state = BigInt(mappingSlot(poolId, poolsSlot));
  return {
    slot0: word(state),
    liquidity: word(state + liquidityOffset),
    tick: (tick: number): Hex => mappingSlot(signedKey(tick), state + ticksOffset),
    tickBitmapWord: (wordPosition: number): Hex => mappingSlot(signedKey(wordPosition), state + tickBitmapOffset),
  };
}

/** slot0 as extsload returns it, decoded. */
export function decodeUniswapV4Slot0(value: Hex): { sqrtPriceX96: bigint; tick: number; protocolFee: number; lpFee: number } {
  const v = BigInt(value);
  return {
    sqrtPriceX96: v & ((1n << 160n) - 1n),
    tick: Number(BigInt.asIntN(24, v >> 160n)),
    protocolFee: Number((v >> 184n) & 0xffffffn),
    lpFee: Number((v >> 208n) & 0xffffffn),
  };
}

/** The in-range liquidity's word as extsload returns it: a uint128 in the low bits. */
export function decodeUniswapV4Liquidity(value: Hex): bigint {
  return BigInt(value) & ((1n << 128n) - 1n);
}

/** A tick's first word as extsload returns it: gross liquidity and (signed) net liquidity. */
export function decodeUniswapV4TickLiquidity(value: Hex): { liquidityGross: bigint; liquidityNet: bigint } {
  const v = BigInt(value);
  return { liquidityGross: v & ((1n << 128n) - 1n), liquidityNet: BigInt.asIntN(128, v >> 128n) };
}
