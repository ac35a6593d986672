// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {MarketClones} from "./MarketCommon.sol";
import {MarketConcentratedPool} from "./MarketConcentratedPool.sol";
import {MarketV3StylePool} from "./MarketV3StylePool.sol";

/// An Aerodrome Slipstream CL pool: Uniswap V3's events and moves (MarketV3StylePool), Slipstream's views
/// (`slot0` without feeProtocol, `ticks` with staked liquidity and reward growth, which stay zero here).
/// Deployed as an ERC-1167 clone of one implementation and initialized by its factory, price included.
contract SlipstreamPool is MarketV3StylePool {
    address public factoryRegistry;

    function initialize(
        address factory_,
        address token0_,
        address token1_,
        int24 tickSpacing_,
        address factoryRegistry_,
        uint160 sqrtPriceX96
    ) external {
        _identify(factory_, token0_, token1_, SlipstreamCLFactory(factory_).tickSpacingToFee(tickSpacing_), tickSpacing_);
        factoryRegistry = factoryRegistry_;
        _initializePrice(sqrtPriceX96);
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
            bool unlocked
        )
    {
        return (_pool.slot0.sqrtPriceX96, _pool.slot0.tick, 0, 1, 1, _unlocked);
    }

    function ticks(int24 tick)
        external
        view
        returns (
            uint128 liquidityGross,
            int128 liquidityNet,
            int128 stakedLiquidityNet,
            uint256 feeGrowthOutside0X128,
            uint256 feeGrowthOutside1X128,
            uint256 rewardGrowthOutsideX128,
            int56 tickCumulativeOutside,
            uint160 secondsPerLiquidityOutsideX128,
            uint32 secondsOutside,
            bool initialized
        )
    {
        MarketConcentratedPool.TickInfo storage info = _pool.ticks[tick];
        return (info.liquidityGross, info.liquidityNet, 0, 0, 0, 0, 0, 0, 0, info.liquidityGross > 0);
    }
}

/// A Slipstream CLFactory: pools per (token pair, enabled tick spacing), each an ERC-1167 clone of
/// `poolImplementation` at CREATE2 salt keccak256(abi.encode(token0, token1, tickSpacing)), created and
/// initialized at a price in one call. Tick spacings and fees as Slipstream's first factory enables them.
contract SlipstreamCLFactory {
    event PoolCreated(address indexed token0, address indexed token1, int24 indexed tickSpacing, address pool);
    event TickSpacingEnabled(int24 indexed tickSpacing, uint24 indexed fee);

    address public immutable poolImplementation;
    mapping(int24 => uint24) public tickSpacingToFee;
    mapping(address => mapping(address => mapping(int24 => address))) public getPool;
    address[] public allPools;
    int24[] private _tickSpacings;

    constructor(address poolImplementation_) {
        poolImplementation = poolImplementation_;
        _enableTickSpacing(1, 100);
        _enableTickSpacing(50, 500);
        _enableTickSpacing(100, 500);
        _enableTickSpacing(200, 3000);
        _enableTickSpacing(2000, 10000);
    }

    function tickSpacings() external view returns (int24[] memory) {
        return _tickSpacings;
    }

    function allPoolsLength() external view returns (uint256) {
        return allPools.length;
    }

    function createPool(address tokenA, address tokenB, int24 tickSpacing, uint160 sqrtPriceX96)
        external
        returns (address pool)
    {
        require(tokenA != tokenB, "same address");
        (address token0, address token1) = tokenA < tokenB ? (tokenA, tokenB) : (tokenB, tokenA);
        require(token0 != address(0), "zero address");
        require(tickSpacingToFee[tickSpacing] != 0, "tick spacing not enabled");
        require(getPool[token0][token1][tickSpacing] == address(0), "pool exists");
        pool = MarketClones.cloneDeterministic(poolImplementation, keccak256(abi.encode(token0, token1, tickSpacing)));
        SlipstreamPool(pool).initialize(address(this), token0, token1, tickSpacing, address(0), sqrtPriceX96);
        getPool[token0][token1][tickSpacing] = pool;
        getPool[token1][token0][tickSpacing] = pool;
        allPools.push(pool);
        emit PoolCreated(token0, token1, tickSpacing, pool);
    }

    function _enableTickSpacing(int24 tickSpacing, uint24 fee) private {
        tickSpacingToFee[tickSpacing] = fee;
        _tickSpacings.push(tickSpacing);
        emit TickSpacingEnabled(tickSpacing, fee);
    }
}
