import { type Address, concat, encodeAbiParameters, encodePacked, getCreate2Address, type Hex, keccak256 } from "viem";

/** A pair's tokens in pool order: token0 is the lower address read as an integer, as every factory sorts them. */
export function sortTokens(a: Address, b: Address): [Address, Address] {
  return BigInt(a) < BigInt(b) ? [a, b] : [b, a];
}

/** The init code hash of an ERC-1167 minimal proxy of `implementation` (OpenZeppelin's Clones, as Aerodrome deploys). */
export function erc1167InitCodeHash(implementation: Address): Hex {
  return keccak256(concat(["0x3d602d80600a3d3981f3363d3d373d3d3d363d73", implementation, "0x5af43d82803e903d91602b57fd5bf3"]));
}

/** A Uniswap V2 pair: CREATE2 by the factory, salt keccak256(abi.encodePacked(token0, token1)). */
export function uniswapV2PairAddress(p: { factory: Address; initCodeHash: Hex; tokenA: Address; tokenB: Address }): Address {
  const [token0, token1] = sortTokens(p.tokenA, p.tokenB);
  return getCreate2Address({
    from: p.factory,
    salt: keccak256(encodePacked(["address", "address"], [token0, token1])),
    bytecodeHash: p.initCodeHash,
  });
}

/** A Uniswap V3 pool: CREATE2 by the factory, salt keccak256(abi.encode(token0, token1, uint24 fee)). */
export function uniswapV3PoolAddress(p: { factory: Address; initCodeHash: Hex; tokenA: Address; tokenB: Address; fee: number }): Address {
  const [token0, token1] = sortTokens(p.tokenA, p.tokenB);
  return getCreate2Address({
    from: p.factory,
    salt: keccak256(encodeAbiParameters([{ type: "address" }, { type: "address" }, { type: "uint24" }], [token0, token1, p.fee])),
    bytecodeHash: p.initCodeHash,
  });
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
  return getCreate2Address({
    from: p.factory,
    salt: keccak256(encodeAbiParameters([{ type: "address" }, { type: "address" }, { type: "int24" }], [token0, token1, p.tickSpacing])),
    bytecodeHash: erc1167InitCodeHash(p.implementation),
  });
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
  return getCreate2Address({
    from: p.factory,
    salt: keccak256(encodePacked(["address", "address", "bool"], [token0, token1, p.stable])),
    bytecodeHash: erc1167InitCodeHash(p.implementation),
  });
}
