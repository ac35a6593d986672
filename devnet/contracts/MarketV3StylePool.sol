// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {MarketSafeTransfer} from "./MarketCommon.sol";
import {MarketConcentratedPool} from "./MarketConcentratedPool.sol";

/// What a Uniswap V3-style pool calls back on its caller to be paid (Slipstream keeps V3's names).
interface IMarketV3Callee {
    function uniswapV3MintCallback(uint256 amount0Owed, uint256 amount1Owed, bytes calldata data) external;
    function uniswapV3SwapCallback(int256 amount0Delta, int256 amount1Delta, bytes calldata data) external;
}

/// A Uniswap V3-style pool with mainnet's events, callbacks and moves: any number of positions, swaps that
/// cross initialized ticks with V3's math (MarketConcentratedPool). The Uniswap V3 pool and the Slipstream
/// CL pool fixtures share it; they differ in how they are created and in their `slot0` and `ticks` views.
/// Simplified: no oracle and no fee growth (the fees stay in the pool), and `burn` pays the tokens back at
/// once instead of through `collect`.
abstract contract MarketV3StylePool {
    using MarketSafeTransfer for address;
    using MarketConcentratedPool for MarketConcentratedPool.State;

    event Initialize(uint160 sqrtPriceX96, int24 tick);
    event Mint(
        address sender,
        address indexed owner,
        int24 indexed tickLower,
        int24 indexed tickUpper,
        uint128 amount,
        uint256 amount0,
        uint256 amount1
    );
    event Burn(
        address indexed owner,
        int24 indexed tickLower,
        int24 indexed tickUpper,
        uint128 amount,
        uint256 amount0,
        uint256 amount1
    );
    event Swap(
        address indexed sender,
        address indexed recipient,
        int256 amount0,
        int256 amount1,
        uint160 sqrtPriceX96,
        uint128 liquidity,
        int24 tick
    );

    address public factory;
    address public token0;
    address public token1;
    uint24 public fee;
    int24 public tickSpacing;

    MarketConcentratedPool.State internal _pool;
    bool internal _unlocked;

    modifier lock() {
        require(_unlocked, "LOK");
        _unlocked = false;
        _;
        _unlocked = true;
    }

    function liquidity() external view returns (uint128) {
        return _pool.liquidity;
    }

    function tickBitmap(int16 wordPosition) external view returns (uint256) {
        return _pool.tickBitmap[wordPosition];
    }

    /// By keccak256(abi.encodePacked(owner, tickLower, tickUpper)), as V3 keys positions.
    function positions(bytes32 key)
        external
        view
        returns (
            uint128 liquidity_,
            uint256 feeGrowthInside0LastX128,
            uint256 feeGrowthInside1LastX128,
            uint128 tokensOwed0,
            uint128 tokensOwed1
        )
    {
        return (_pool.positions[key].liquidity, 0, 0, 0, 0);
    }

    function mint(address recipient, int24 tickLower, int24 tickUpper, uint128 amount, bytes calldata data)
        external
        lock
        returns (uint256 amount0, uint256 amount1)
    {
        require(amount > 0, "zero liquidity");
        (int256 owed0, int256 owed1) = _modify(recipient, tickLower, tickUpper, _toInt128(amount));
        (amount0, amount1) = (uint256(owed0), uint256(owed1));
        uint256 balance0Before = token0.balanceOf(address(this));
        uint256 balance1Before = token1.balanceOf(address(this));
        IMarketV3Callee(msg.sender).uniswapV3MintCallback(amount0, amount1, data);
        require(token0.balanceOf(address(this)) >= balance0Before + amount0, "M0");
        require(token1.balanceOf(address(this)) >= balance1Before + amount1, "M1");
        emit Mint(msg.sender, recipient, tickLower, tickUpper, amount, amount0, amount1);
    }

    /// Removes the caller's liquidity and returns its tokens at once (no separate collect step).
    function burn(int24 tickLower, int24 tickUpper, uint128 amount)
        external
        lock
        returns (uint256 amount0, uint256 amount1)
    {
        (int256 owed0, int256 owed1) = _modify(msg.sender, tickLower, tickUpper, -_toInt128(amount));
        (amount0, amount1) = (uint256(-owed0), uint256(-owed1));
        if (amount0 > 0) token0.safeTransfer(msg.sender, amount0);
        if (amount1 > 0) token1.safeTransfer(msg.sender, amount1);
        emit Burn(msg.sender, tickLower, tickUpper, amount, amount0, amount1);
    }

    /// A positive `amountSpecified` is an exact input, a negative one an exact output.
    function swap(
        address recipient,
        bool zeroForOne,
        int256 amountSpecified,
        uint160 sqrtPriceLimitX96,
        bytes calldata data
    ) external lock returns (int256 amount0, int256 amount1) {
        (amount0, amount1) = _pool.swap(
            MarketConcentratedPool.SwapParams(zeroForOne, amountSpecified, sqrtPriceLimitX96, tickSpacing, fee)
        );
        _settle(recipient, amount0, amount1, data);
        emit Swap(msg.sender, recipient, amount0, amount1, _pool.slot0.sqrtPriceX96, _pool.liquidity, _pool.slot0.tick);
    }

    /// Sets who the pool is, once: a clone's implementation holds none, so a clone is set by its factory.
    function _identify(address factory_, address token0_, address token1_, uint24 fee_, int24 tickSpacing_) internal {
        require(factory == address(0) && factory_ != address(0), "already identified");
        factory = factory_;
        token0 = token0_;
        token1 = token1_;
        fee = fee_;
        tickSpacing = tickSpacing_;
    }

    function _initializePrice(uint160 sqrtPriceX96) internal {
        int24 tick = _pool.initialize(sqrtPriceX96, fee);
        _unlocked = true;
        emit Initialize(sqrtPriceX96, tick);
    }

    function _modify(address owner, int24 tickLower, int24 tickUpper, int128 delta) private returns (int256, int256) {
        bytes32 key = keccak256(abi.encodePacked(owner, tickLower, tickUpper));
        return _pool.modifyPosition(MarketConcentratedPool.PositionChange(key, tickLower, tickUpper, delta, tickSpacing));
    }

    function _toInt128(uint128 amount) private pure returns (int128) {
        require(amount <= uint128(type(int128).max), "liquidity overflow");
        return int128(amount);
    }

    /// Pays the recipient first, then has the caller pay the pool through the callback.
    function _settle(address recipient, int256 amount0, int256 amount1, bytes calldata data) private {
        if (amount0 < 0) token0.safeTransfer(recipient, uint256(-amount0));
        if (amount1 < 0) token1.safeTransfer(recipient, uint256(-amount1));
        (address tokenIn, uint256 owed) = amount0 > 0 ? (token0, uint256(amount0)) : (token1, uint256(amount1));
        uint256 before = tokenIn.balanceOf(address(this));
        IMarketV3Callee(msg.sender).uniswapV3SwapCallback(amount0, amount1, data);
        require(tokenIn.balanceOf(address(this)) >= before + owed, "IIA");
    }
}
