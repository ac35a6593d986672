// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {MarketConcentratedPool} from "./MarketConcentratedPool.sol";
import {MarketV3StylePool} from "./MarketV3StylePool.sol";

/// What a pool being deployed reads back from its deployer (Uniswap V3's IUniswapV3PoolDeployer).
interface IUniswapV3PoolDeployer {
    function parameters()
        external
        view
        returns (address factory, address token0, address token1, uint24 fee, int24 tickSpacing);
}

/// A Uniswap V3 pool with mainnet's events, callbacks and views (`slot0`, `liquidity`, `ticks`,
/// `tickBitmap`, `positions`). As V3's, its constructor takes no arguments and reads its identity back from
/// the factory deploying it: its creation code, hence the init code hash its CREATE2 address follows from,
/// is one constant.
contract UniswapV3Pool is MarketV3StylePool {
    constructor() {
        (address factory_, address token0_, address token1_, uint24 fee_, int24 tickSpacing_) =
            IUniswapV3PoolDeployer(msg.sender).parameters();
        _identify(factory_, token0_, token1_, fee_, tickSpacing_);
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

    function initialize(uint160 sqrtPriceX96) external {
        _initializePrice(sqrtPriceX96);
    }
}

/// Creates UniswapV3Pools per (token pair, fee tier), with Base's fee tiers and tick spacings, at
/// CREATE2 salt keccak256(abi.encode(token0, token1, fee)) as V3's factory does.
contract UniswapV3Factory is IUniswapV3PoolDeployer {
    event PoolCreated(
        address indexed token0, address indexed token1, uint24 indexed fee, int24 tickSpacing, address pool
    );
    event FeeAmountEnabled(uint24 indexed fee, int24 indexed tickSpacing);

    struct Parameters {
        address factory;
        address token0;
        address token1;
        uint24 fee;
        int24 tickSpacing;
    }

    /// Set only while a pool is being deployed, for its constructor to read.
    Parameters public override parameters;

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
        parameters = Parameters(address(this), token0, token1, fee, tickSpacing);
        pool = address(new UniswapV3Pool{salt: keccak256(abi.encode(token0, token1, fee))}());
        delete parameters;
        getPool[token0][token1][fee] = pool;
        getPool[token1][token0][fee] = pool;
        emit PoolCreated(token0, token1, fee, tickSpacing, pool);
    }

    function _enableFeeAmount(uint24 fee, int24 tickSpacing) private {
        feeAmountTickSpacing[fee] = tickSpacing;
        emit FeeAmountEnabled(fee, tickSpacing);
    }
}
