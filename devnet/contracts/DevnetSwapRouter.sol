// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {MarketSafeTransfer} from "./MarketCommon.sol";
import {MarketTickMath} from "./MarketV3Math.sol";
import {AerodromePool} from "./Aerodrome.sol";
import {UniswapV2Pair} from "./UniswapV2.sol";
import {UniswapV3Factory, UniswapV3Pool} from "./UniswapV3.sol";

/// One-transaction liquidity adds and exact-input swaps on the devnet pools, paid from the caller's
/// approvals: what seeding and the traffic generator use.
contract DevnetSwapRouter {
    using MarketSafeTransfer for address;

    UniswapV3Factory public immutable uniswapV3Factory;

    constructor(UniswapV3Factory uniswapV3Factory_) {
        uniswapV3Factory = uniswapV3Factory_;
    }

    /// Adds liquidity to a Uniswap V2-style pair or an Aerodrome pool (both mint for tokens sent first).
    function addLiquidity(address pool, uint256 amount0, uint256 amount1, address to) external returns (uint256) {
        UniswapV2Pair pair = UniswapV2Pair(pool);
        pair.token0().safeTransferFrom(msg.sender, pool, amount0);
        pair.token1().safeTransferFrom(msg.sender, pool, amount1);
        return pair.mint(to);
    }

    function mintV3(address pool, int24 tickLower, int24 tickUpper, uint128 liquidity, address recipient)
        external
        returns (uint256 amount0, uint256 amount1)
    {
        return UniswapV3Pool(pool).mint(recipient, tickLower, tickUpper, liquidity, abi.encode(msg.sender));
    }

    function swapV2(address pool, address tokenIn, uint256 amountIn, uint256 minOut, address to)
        external
        returns (uint256 amountOut)
    {
        UniswapV2Pair pair = UniswapV2Pair(pool);
        bool zeroIn = tokenIn == pair.token0();
        require(zeroIn || tokenIn == pair.token1(), "not a pool token");
        (uint256 r0, uint256 r1,) = pair.getReserves();
        (uint256 reserveIn, uint256 reserveOut) = zeroIn ? (r0, r1) : (r1, r0);
        amountOut = amountIn * 997 * reserveOut / (reserveIn * 1000 + amountIn * 997);
        require(amountOut >= minOut, "too little received");
        tokenIn.safeTransferFrom(msg.sender, pool, amountIn);
        pair.swap(zeroIn ? 0 : amountOut, zeroIn ? amountOut : 0, to, "");
    }

    function swapAerodrome(address pool, address tokenIn, uint256 amountIn, uint256 minOut, address to)
        external
        returns (uint256 amountOut)
    {
        AerodromePool aerodrome = AerodromePool(pool);
        amountOut = aerodrome.getAmountOut(amountIn, tokenIn);
        require(amountOut >= minOut, "too little received");
        tokenIn.safeTransferFrom(msg.sender, pool, amountIn);
        bool zeroIn = tokenIn == aerodrome.token0();
        aerodrome.swap(zeroIn ? 0 : amountOut, zeroIn ? amountOut : 0, to, "");
    }

    /// An exact-input swap that may fill only partly when the price reaches the pool's range edge.
    function swapV3(address pool, bool zeroForOne, uint256 amountIn, uint256 minOut, address to)
        external
        returns (uint256 amountOut)
    {
        uint160 limit = zeroForOne ? MarketTickMath.MIN_SQRT_RATIO + 1 : MarketTickMath.MAX_SQRT_RATIO - 1;
        (int256 amount0, int256 amount1) =
            UniswapV3Pool(pool).swap(to, zeroForOne, int256(amountIn), limit, abi.encode(msg.sender));
        amountOut = uint256(-(zeroForOne ? amount1 : amount0));
        require(amountOut >= minOut, "too little received");
    }

    function uniswapV3MintCallback(uint256 amount0Owed, uint256 amount1Owed, bytes calldata data) external {
        address payer = _payerFromPool(data);
        UniswapV3Pool pool = UniswapV3Pool(msg.sender);
        if (amount0Owed > 0) pool.token0().safeTransferFrom(payer, msg.sender, amount0Owed);
        if (amount1Owed > 0) pool.token1().safeTransferFrom(payer, msg.sender, amount1Owed);
    }

    function uniswapV3SwapCallback(int256 amount0Delta, int256 amount1Delta, bytes calldata data) external {
        address payer = _payerFromPool(data);
        UniswapV3Pool pool = UniswapV3Pool(msg.sender);
        if (amount0Delta > 0) pool.token0().safeTransferFrom(payer, msg.sender, uint256(amount0Delta));
        if (amount1Delta > 0) pool.token1().safeTransferFrom(payer, msg.sender, uint256(amount1Delta));
    }

    /// Only a pool of the factory may pull the payer's approved tokens.
    function _payerFromPool(bytes calldata data) private view returns (address) {
        UniswapV3Pool pool = UniswapV3Pool(msg.sender);
        require(uniswapV3Factory.getPool(pool.token0(), pool.token1(), pool.fee()) == msg.sender, "not a pool");
        return abi.decode(data, (address));
    }
}
