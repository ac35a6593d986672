import { type Address, bytesToHex, concat, getAddress, type Hex, hexToBytes, keccak256 } from "viem";

/** A pair's tokens in pool order: token0 is the lower address read as an integer, as every factory sorts them. */
export function sortTokens(a: Address, b: Address): [Address, Address] {
  return BigInt(a) < BigInt(b) ? [a, b] : [b, a];
}

/**
 * CREATE2's address, keccak256(0xff ++ deployer ++ salt ++ init code hash)[12:], checksummed. Built on bytes
 * (viem's getCreate2Address and encodeAbiParameters go through hex strings): the trade simulation derives
 * dozens of candidates per request, and each costs its keccaks.
 */
function create2Address(deployer: Address, salt: Uint8Array, initCodeHash: Hex): Address {
  const input = new Uint8Array(85);
  input[0] = 0xff;
  input.set(hexToBytes(deployer), 1);
  input.set(keccak256(salt, "bytes"), 21);
  input.set(hexToBytes(initCodeHash), 53);
  return getAddress(bytesToHex(keccak256(input, "bytes").subarray(12)));
}

/** abi.encode(token0, token1, value) for a uint24 or a non-negative int24: three 32-byte words. */
function encodePairAnd(token0: Address, token1: Address, value: number): Uint8Array {
  if (!Number.isInteger(value) || value < 0 || value >= 2 ** 24) throw new Error(`not a fee or tick spacing: ${value}`);
  const words = new Uint8Array(96);
  words.set(hexToBytes(token0), 12);
  words.set(hexToBytes(token1), 44);
  words[93] = value >> 16;
  words[94] = (value >> 8) & 0xff;
  words[95] = value & 0xff;
  return words;
}

/** abi.encodePacked(token0, token1), with a trailing bool where `stable` is given. */
function encodePackedPair(token0: Address, token1: Address, stable?: boolean): Uint8Array {
  const packed = new Uint8Array(stable === undefined ? 40 : 41);
  packed.set(hexToBytes(token0), 0);
  packed.set(hexToBytes(token1), 20);
  if (stable !== undefined) packed[40] = stable ? 1 : 0;
  return packed;
}

const cloneInitCodeHashes = new Map<string, Hex>();

/**
 * The init code hash of an ERC-1167 minimal proxy of `implementation` (OpenZeppelin's Clones, as Aerodrome
 * deploys); kept per implementation, as every clone address of a factory hashes it again.
 */
export function erc1167InitCodeHash(implementation: Address): Hex {
  let hash = cloneInitCodeHashes.get(implementation);
  if (hash === undefined) {
    hash = keccak256(concat(["0x3d602d80600a3d3981f3363d3d373d3d3d363d73", implementation, "0x5af43d82803e903d91602b57fd5bf3"]));
    cloneInitCodeHashes.set(implementation, hash);
  }
  return hash;
}

/** A Uniswap V2 pair: CREATE2 by the factory, salt keccak256(abi.encodePacked(token0, token1)). */
export function uniswapV2PairAddress(p: { factory: Address; initCodeHash: Hex; tokenA: Address; tokenB: Address }): Address {
  const [token0, token1] = sortTokens(p.tokenA, p.tokenB);
  return create2Address(p.factory, encodePackedPair(token0, token1), p.initCodeHash);
}

/** A Uniswap V3 pool: CREATE2 by the factory, salt keccak256(abi.encode(token0, token1, uint24 fee)). */
export function uniswapV3PoolAddress(p: { factory: Address; initCodeHash: Hex; tokenA: Address; tokenB: Address; fee: number }): Address {
  const [token0, token1] = sortTokens(p.tokenA, p.tokenB);
  return create2Address(p.factory, encodePairAnd(token0, token1, p.fee), p.initCodeHash);
}

/** A Slipstream CL pool: a clone of the factory's pool implementation, salt keccak256(abi.encode(token0, token1, int24 tickSpacing)). */
export function slipstreamPoolAddress(p: {
  factory: Address;
  implementation: Address;
  tokenA: Address;
  tokenB: Address;
  tickSpacing: number;
}): Address {
  const [token0, token1] = sortTokens(p.tokenA, p.tokenB);
  return create2Address(p.factory, encodePairAnd(token0, token1, p.tickSpacing), erc1167InitCodeHash(p.implementation));
}

/** An Aerodrome basic pool: a clone of the factory's implementation, salt keccak256(abi.encodePacked(token0, token1, stable)). */
export function aerodromePoolAddress(p: {
  factory: Address;
  implementation: Address;
  tokenA: Address;
  tokenB: Address;
  stable: boolean;
}): Address {
  const [token0, token1] = sortTokens(p.tokenA, p.tokenB);
  return create2Address(p.factory, encodePackedPair(token0, token1, p.stable), erc1167InitCodeHash(p.implementation));
}
