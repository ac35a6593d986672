// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {MarketSafeTransfer} from "./MarketCommon.sol";
import {MarketFullMath, MarketSqrtPriceMath, MarketTickMath} from "./MarketV3Math.sol";

/// What a Uniswap V3-style pool calls back on its caller to be paid.
interface IMarketV3Callee {
    function uniswapV3MintCallback(uint256 amount0Owed, uint256 amount1Owed, bytes calldata data) external;
    function uniswapV3SwapCallback(int256 amount0Delta, int256 amount1Delta, bytes calldata data) external;
}

/// A Uniswap V3-style pool with mainnet's events, views and callbacks, simplified to one liquidity range:
/// the first mint fixes [tickLower, tickUpper] (which must hold the price), later mints and burns use the
/// same range, and swaps stop at its edges instead of crossing ticks. Swap fees stay in the pool.
contract UniswapV3Pool {
    using MarketSafeTransfer for address;

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

    struct Slot0 {
        uint160 sqrtPriceX96;
        int24 tick;
        uint16 observationIndex;
        uint16 observationCardinality;
        uint16 observationCardinalityNext;
        uint8 feeProtocol;
        bool unlocked;
    }

    struct Step {
        uint160 sqrtPriceNext;
        uint256 amountIn;
        uint256 amountOut;
        uint256 feeAmount;
    }

    address public immutable factory;
    address public immutable token0;
    address public immutable token1;
    uint24 public immutable fee;
    int24 public immutable tickSpacing;

    Slot0 public slot0;
    uint128 public liquidity;
    int24 public rangeLower;
    int24 public rangeUpper;
    bool public rangeSet;
    mapping(address => uint128) public liquidityOf;

    modifier lock() {
        require(slot0.unlocked, "LOK");
        slot0.unlocked = false;
        _;
        slot0.unlocked = true;
    }

    constructor(address token0_, address token1_, uint24 fee_, int24 tickSpacing_) {
        factory = msg.sender;
        token0 = token0_;
        token1 = token1_;
        fee = fee_;
        tickSpacing = tickSpacing_;
    }

    function initialize(uint160 sqrtPriceX96) external {
        require(slot0.sqrtPriceX96 == 0, "AI");
        int24 tick = MarketTickMath.tickAtSqrtRatio(sqrtPriceX96);
        slot0 = Slot0(sqrtPriceX96, tick, 0, 1, 1, 0, true);
        emit Initialize(sqrtPriceX96, tick);
    }

    function mint(address recipient, int24 tickLower, int24 tickUpper, uint128 amount, bytes calldata data)
        external
        lock
        returns (uint256 amount0, uint256 amount1)
    {
        require(amount > 0, "zero liquidity");
        _useRange(tickLower, tickUpper);
        (amount0, amount1) = _amounts(amount, true);
        liquidity += amount;
        liquidityOf[recipient] += amount;
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
        require(rangeSet && tickLower == rangeLower && tickUpper == rangeUpper, "unknown range");
        require(liquidityOf[msg.sender] >= amount, "not enough liquidity");
        (amount0, amount1) = _amounts(amount, false);
        liquidity -= amount;
        liquidityOf[msg.sender] -= amount;
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
        require(amountSpecified != 0, "AS");
        require(liquidity > 0, "no liquidity");
        uint160 sqrtP = slot0.sqrtPriceX96;
        require(
            zeroForOne
                ? sqrtPriceLimitX96 < sqrtP && sqrtPriceLimitX96 > MarketTickMath.MIN_SQRT_RATIO
                : sqrtPriceLimitX96 > sqrtP && sqrtPriceLimitX96 < MarketTickMath.MAX_SQRT_RATIO,
            "SPL"
        );
        Step memory step = _step(sqrtP, _target(zeroForOne, sqrtPriceLimitX96), amountSpecified, zeroForOne);
        require(step.amountIn + step.feeAmount > 0, "price at range edge");
        (amount0, amount1) = zeroForOne
            ? (int256(step.amountIn + step.feeAmount), -int256(step.amountOut))
            : (-int256(step.amountOut), int256(step.amountIn + step.feeAmount));
        int24 tick = MarketTickMath.tickAtSqrtRatio(step.sqrtPriceNext);
        slot0.sqrtPriceX96 = step.sqrtPriceNext;
        slot0.tick = tick;
        _settle(recipient, amount0, amount1, data);
        emit Swap(msg.sender, recipient, amount0, amount1, step.sqrtPriceNext, liquidity, tick);
    }

    function _useRange(int24 tickLower, int24 tickUpper) private {
        if (rangeSet) {
            require(tickLower == rangeLower && tickUpper == rangeUpper, "only one range");
            return;
        }
        require(tickLower < tickUpper, "TLU");
        require(tickLower >= MarketTickMath.MIN_TICK && tickUpper <= MarketTickMath.MAX_TICK, "TLM");
        require(tickLower % tickSpacing == 0 && tickUpper % tickSpacing == 0, "tick not spaced");
        uint160 sqrtP = slot0.sqrtPriceX96;
        require(
            MarketTickMath.sqrtRatioAtTick(tickLower) <= sqrtP && sqrtP <= MarketTickMath.sqrtRatioAtTick(tickUpper),
            "range must hold the price"
        );
        (rangeLower, rangeUpper, rangeSet) = (tickLower, tickUpper, true);
    }

    /// The tokens that `amount` of liquidity holds at the current price within the range.
    function _amounts(uint128 amount, bool roundUp) private view returns (uint256 amount0, uint256 amount1) {
        uint160 sqrtP = slot0.sqrtPriceX96;
        amount0 = MarketSqrtPriceMath.amount0Delta(sqrtP, MarketTickMath.sqrtRatioAtTick(rangeUpper), amount, roundUp);
        amount1 = MarketSqrtPriceMath.amount1Delta(MarketTickMath.sqrtRatioAtTick(rangeLower), sqrtP, amount, roundUp);
    }

    /// Where the price may go: the caller's limit or the range's edge, whichever comes first.
    function _target(bool zeroForOne, uint160 limit) private view returns (uint160) {
        if (zeroForOne) {
            uint160 lower = MarketTickMath.sqrtRatioAtTick(rangeLower);
            return limit > lower ? limit : lower;
        }
        uint160 upper = MarketTickMath.sqrtRatioAtTick(rangeUpper);
        return limit < upper ? limit : upper;
    }

    /// One swap step towards `target` with the pool's liquidity, fee charged on the input.
    function _step(uint160 sqrtP, uint160 target, int256 amountSpecified, bool zeroForOne)
        private
        view
        returns (Step memory step)
    {
        uint128 l = liquidity;
        bool exactIn = amountSpecified > 0;
        if (exactIn) {
            uint256 lessFee = MarketFullMath.mulDiv(uint256(amountSpecified), 1e6 - fee, 1e6);
            uint256 toTarget = zeroForOne
                ? MarketSqrtPriceMath.amount0Delta(target, sqrtP, l, true)
                : MarketSqrtPriceMath.amount1Delta(sqrtP, target, l, true);
            step.sqrtPriceNext =
                lessFee >= toTarget ? target : MarketSqrtPriceMath.nextFromInput(sqrtP, l, lessFee, zeroForOne);
        } else {
            uint256 wanted = uint256(-amountSpecified);
            uint256 toTarget = zeroForOne
                ? MarketSqrtPriceMath.amount1Delta(target, sqrtP, l, false)
                : MarketSqrtPriceMath.amount0Delta(sqrtP, target, l, false);
            step.sqrtPriceNext =
                wanted >= toTarget ? target : MarketSqrtPriceMath.nextFromOutput(sqrtP, l, wanted, zeroForOne);
        }
        step.amountIn = zeroForOne
            ? MarketSqrtPriceMath.amount0Delta(step.sqrtPriceNext, sqrtP, l, true)
            : MarketSqrtPriceMath.amount1Delta(sqrtP, step.sqrtPriceNext, l, true);
        step.amountOut = zeroForOne
            ? MarketSqrtPriceMath.amount1Delta(step.sqrtPriceNext, sqrtP, l, false)
            : MarketSqrtPriceMath.amount0Delta(sqrtP, step.sqrtPriceNext, l, false);
        if (!exactIn && step.amountOut > uint256(-amountSpecified)) step.amountOut = uint256(-amountSpecified);
        // An exact input that stops short of the target keeps its whole remainder as the fee.
        step.feeAmount = exactIn && step.sqrtPriceNext != target
            ? uint256(amountSpecified) - step.amountIn
            : MarketFullMath.mulDivUp(step.amountIn, fee, 1e6 - fee);
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
