// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {MarketSafeTransfer} from "./MarketCommon.sol";
import {MarketConcentratedPool} from "./MarketConcentratedPool.sol";

/// What a Uniswap V3-style pool calls back on its caller to be paid.
interface IMarketV3Callee {
    function uniswapV3MintCallback(uint256 amount0Owed, uint256 amount1Owed, bytes calldata data) external;
    function uniswapV3SwapCallback(int256 amount0Delta, int256 amount1Delta, bytes calldata data) external;
}

/// A Uniswap V3 pool with mainnet's events, callbacks and views (`slot0`, `liquidity`, `ticks`,
/// `tickBitmap`, `positions`): any number of positions, swaps that cross initialized ticks with V3's math
/// (MarketConcentratedPool). Simplified: no oracle and no fee growth (their fields read zero, the fees stay
/// in the pool), and `burn` pays the tokens back at once instead of through `collect`.
contract UniswapV3Pool {
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

    address public immutable factory;
    address public immutable token0;
    address public immutable token1;
    uint24 public immutable fee;
    int24 public immutable tickSpacing;

    MarketConcentratedPool.State private _pool;
    bool private _unlocked;

    modifier lock() {
        require(_unlocked, "LOK");
        _unlocked = false;
        _;
        _unlocked = true;
    }

    constructor(address token0_, address token1_, uint24 fee_, int24 tickSpacing_) {
        factory = msg.sender;
        token0 = token0_;
        token1 = token1_;
        fee = fee_;
        tickSpacing = tickSpacing_;
    }

    function slot0()
        external
        view
        returns (
            uint160 sqrtPriceX96,
            int24 tick,
            uint16 observationIndex,
            uint16 observationCardinality,
            uint16 observationCardinalityNext,
            uint8 feeProtocol,
            bool unlocked
        )
    {
        return (_pool.slot0.sqrtPriceX96, _pool.slot0.tick, 0, 1, 1, 0, _unlocked);
    }

    function liquidity() external view returns (uint128) {
        return _pool.liquidity;
    }

    function ticks(int24 tick)
        external
        view
        returns (
            uint128 liquidityGross,
            int128 liquidityNet,
            uint256 feeGrowthOutside0X128,
            uint256 feeGrowthOutside1X128,
            int56 tickCumulativeOutside,
            uint160 secondsPerLiquidityOutsideX128,
            uint32 secondsOutside,
            bool initialized
        )
    {
        MarketConcentratedPool.TickInfo storage info = _pool.ticks[tick];
        return (info.liquidityGross, info.liquidityNet, 0, 0, 0, 0, 0, info.liquidityGross > 0);
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

    function initialize(uint160 sqrtPriceX96) external {
        int24 tick = _pool.initialize(sqrtPriceX96, fee);
        _unlocked = true;
        emit Initialize(sqrtPriceX96, tick);
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

/// Creates UniswapV3Pools per (token pair, fee tier), with Base's fee tiers and tick spacings.
contract UniswapV3Factory {
    event PoolCreated(
        address indexed token0, address indexed token1, uint24 indexed fee, int24 tickSpacing, address pool
    );
    event FeeAmountEnabled(uint24 indexed fee, int24 indexed tickSpacing);

    mapping(uint24 => int24) public feeAmountTickSpacing;
    mapping(address => mapping(address => mapping(uint24 => address))) public getPool;

    constructor() {
        _enableFeeAmount(100, 1);
        _enableFeeAmount(500, 10);
        _enableFeeAmount(3000, 60);
        _enableFeeAmount(10000, 200);
    }

    function createPool(address tokenA, address tokenB, uint24 fee) external returns (address pool) {
        require(tokenA != tokenB, "identical tokens");
        (address token0, address token1) = tokenA < tokenB ? (tokenA, tokenB) : (tokenB, tokenA);
        require(token0 != address(0), "zero address");
        int24 tickSpacing = feeAmountTickSpacing[fee];
        require(tickSpacing != 0, "fee not enabled");
        require(getPool[token0][token1][fee] == address(0), "pool exists");
        pool = address(
            new UniswapV3Pool{salt: keccak256(abi.encode(token0, token1, fee))}(token0, token1, fee, tickSpacing)
        );
        getPool[token0][token1][fee] = pool;
        getPool[token1][token0][fee] = pool;
        emit PoolCreated(token0, token1, fee, tickSpacing, pool);
    }

    function _enableFeeAmount(uint24 fee, int24 tickSpacing) private {
        feeAmountTickSpacing[fee] = tickSpacing;
        emit FeeAmountEnabled(fee, tickSpacing);
    }
}
