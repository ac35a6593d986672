// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {
    MarketLiquidityMath,
    MarketSqrtPriceMath,
    MarketSwapMath,
    MarketTickBitmap,
    MarketTickMath
} from "./MarketV3Math.sol";

/// A concentrated-liquidity pool's state and its two moves, shared by the Uniswap V3 pool and V4
/// PoolManager fixtures: positions over tick ranges, per-tick gross and net liquidity, a tick bitmap, and
/// swaps that cross initialized ticks as Uniswap V3 and V4 do. Amounts are the pool's: positive flows in.
/// Fee growth and oracle state are not tracked (their fields stay zero). `State` is laid out as V4's
/// Pool.State, so that V4's StateLibrary reads it through extsload.
library MarketConcentratedPool {
    using MarketTickBitmap for mapping(int16 => uint256);

    /// One storage word: sqrtPriceX96 in the low 160 bits, then tick, protocol fee and LP fee (24 bits each).
    struct Slot0 {
        uint160 sqrtPriceX96;
        int24 tick;
        uint24 protocolFee;
        uint24 lpFee;
    }

    struct TickInfo {
        uint128 liquidityGross;
        int128 liquidityNet;
        uint256 feeGrowthOutside0X128;
        uint256 feeGrowthOutside1X128;
    }

    struct Position {
        uint128 liquidity;
        uint256 feeGrowthInside0LastX128;
        uint256 feeGrowthInside1LastX128;
    }

    struct State {
        Slot0 slot0;
        uint256 feeGrowthGlobal0X128;
        uint256 feeGrowthGlobal1X128;
        uint128 liquidity;
        mapping(int24 => TickInfo) ticks;
        mapping(int16 => uint256) tickBitmap;
        mapping(bytes32 => Position) positions;
    }

    struct PositionChange {
        bytes32 positionKey;
        int24 tickLower;
        int24 tickUpper;
        int128 liquidityDelta;
        int24 tickSpacing;
    }

    struct SwapParams {
        bool zeroForOne;
        /// Positive: an exact input; negative: an exact output (V3's convention).
        int256 amountSpecified;
        uint160 sqrtPriceLimitX96;
        int24 tickSpacing;
        uint24 feePips;
    }

    /// What a swap carries from one step to the next.
    struct SwapCursor {
        uint160 sqrtPriceX96;
        int24 tick;
        uint128 liquidity;
        int256 amountRemaining;
        int256 amountCalculated;
    }

    struct SwapStep {
        uint160 sqrtPriceStartX96;
        int24 tickNext;
        bool initialized;
        uint160 sqrtPriceNextX96;
        uint256 amountIn;
        uint256 amountOut;
        uint256 feeAmount;
    }

    function initialize(State storage self, uint160 sqrtPriceX96, uint24 lpFee) internal returns (int24 tick) {
        require(self.slot0.sqrtPriceX96 == 0, "already initialized");
        tick = MarketTickMath.tickAtSqrtRatio(sqrtPriceX96);
        self.slot0 = Slot0(sqrtPriceX96, tick, 0, lpFee);
    }

    /// Adds (positive delta) or removes liquidity of one position; returns the tokens owed to the pool
    /// (positive) or paid by it (negative). A zero delta only checks that the position exists.
    function modifyPosition(State storage self, PositionChange memory change) internal returns (int256 amount0, int256 amount1) {
        require(self.slot0.sqrtPriceX96 != 0, "not initialized");
        require(change.tickLower < change.tickUpper, "TLU");
        require(change.tickLower >= MarketTickMath.MIN_TICK && change.tickUpper <= MarketTickMath.MAX_TICK, "tick out of range");
        Position storage position = self.positions[change.positionKey];
        if (change.liquidityDelta == 0) {
            require(position.liquidity > 0, "empty position");
            return (0, 0);
        }
        position.liquidity = MarketLiquidityMath.addDelta(position.liquidity, change.liquidityDelta);
        _updateTick(self, change.tickLower, change.liquidityDelta, false, change.tickSpacing);
        _updateTick(self, change.tickUpper, change.liquidityDelta, true, change.tickSpacing);

        uint160 sqrtLower = MarketTickMath.sqrtRatioAtTick(change.tickLower);
        uint160 sqrtUpper = MarketTickMath.sqrtRatioAtTick(change.tickUpper);
        Slot0 memory slot0 = self.slot0;
        if (slot0.tick < change.tickLower) {
            amount0 = MarketSqrtPriceMath.signedAmount0Delta(sqrtLower, sqrtUpper, change.liquidityDelta);
        } else if (slot0.tick < change.tickUpper) {
            amount0 = MarketSqrtPriceMath.signedAmount0Delta(slot0.sqrtPriceX96, sqrtUpper, change.liquidityDelta);
            amount1 = MarketSqrtPriceMath.signedAmount1Delta(sqrtLower, slot0.sqrtPriceX96, change.liquidityDelta);
            self.liquidity = MarketLiquidityMath.addDelta(self.liquidity, change.liquidityDelta);
        } else {
            amount1 = MarketSqrtPriceMath.signedAmount1Delta(sqrtLower, sqrtUpper, change.liquidityDelta);
        }
    }

    /// Crossing `tick` upwards adds liquidityNet: the lower tick of a position gains its delta, the upper
    /// loses it. A tick whose gross liquidity becomes or stops being zero flips in the bitmap; an emptied
    /// tick is cleared.
    function _updateTick(State storage self, int24 tick, int128 delta, bool upper, int24 tickSpacing) private {
        TickInfo storage info = self.ticks[tick];
        uint128 grossBefore = info.liquidityGross;
        uint128 grossAfter = MarketLiquidityMath.addDelta(grossBefore, delta);
        require(grossAfter <= MarketTickMath.maxLiquidityPerTick(tickSpacing), "LO");
        if ((grossAfter == 0) != (grossBefore == 0)) self.tickBitmap.flipTick(tick, tickSpacing);
        if (grossAfter == 0) {
            delete self.ticks[tick];
            return;
        }
        info.liquidityGross = grossAfter;
        info.liquidityNet = upper ? info.liquidityNet - delta : info.liquidityNet + delta;
    }

    /// Swaps until the amount is spent (or delivered) or the price reaches the limit, crossing initialized
    /// ticks on the way; returns the pool's amounts (positive: paid in by the swapper).
    function swap(State storage self, SwapParams memory params) internal returns (int256 amount0, int256 amount1) {
        require(params.amountSpecified != 0, "AS");
        Slot0 memory start = self.slot0;
        require(start.sqrtPriceX96 != 0, "not initialized");
        require(
            params.zeroForOne
                ? params.sqrtPriceLimitX96 < start.sqrtPriceX96 && params.sqrtPriceLimitX96 > MarketTickMath.MIN_SQRT_RATIO
                : params.sqrtPriceLimitX96 > start.sqrtPriceX96 && params.sqrtPriceLimitX96 < MarketTickMath.MAX_SQRT_RATIO,
            "SPL"
        );
        bool exactInput = params.amountSpecified > 0;
        SwapCursor memory cursor = SwapCursor(start.sqrtPriceX96, start.tick, self.liquidity, params.amountSpecified, 0);
        while (cursor.amountRemaining != 0 && cursor.sqrtPriceX96 != params.sqrtPriceLimitX96) {
            SwapStep memory step = _step(self, cursor, params);
            if (exactInput) {
                cursor.amountRemaining -= int256(step.amountIn + step.feeAmount);
                cursor.amountCalculated -= int256(step.amountOut);
            } else {
                cursor.amountRemaining += int256(step.amountOut);
                cursor.amountCalculated += int256(step.amountIn + step.feeAmount);
            }
            if (cursor.sqrtPriceX96 == step.sqrtPriceNextX96) {
                if (step.initialized) {
                    int128 net = self.ticks[step.tickNext].liquidityNet;
                    cursor.liquidity = MarketLiquidityMath.addDelta(cursor.liquidity, params.zeroForOne ? -net : net);
                }
                // Left of a crossed tick the price lies in the range below it.
                cursor.tick = params.zeroForOne ? step.tickNext - 1 : step.tickNext;
            } else if (cursor.sqrtPriceX96 != step.sqrtPriceStartX96) {
                cursor.tick = MarketTickMath.tickAtSqrtRatio(cursor.sqrtPriceX96);
            }
        }
        self.slot0.sqrtPriceX96 = cursor.sqrtPriceX96;
        self.slot0.tick = cursor.tick;
        if (cursor.liquidity != self.liquidity) self.liquidity = cursor.liquidity;
        int256 specifiedUsed = params.amountSpecified - cursor.amountRemaining;
        (amount0, amount1) = params.zeroForOne == exactInput
            ? (specifiedUsed, cursor.amountCalculated)
            : (cursor.amountCalculated, specifiedUsed);
    }

    /// One step: to the next initialized tick (or the end of the bitmap word), the price limit, or where
    /// the amount runs out, whichever comes first; moves the cursor's price.
    function _step(State storage self, SwapCursor memory cursor, SwapParams memory params)
        private
        view
        returns (SwapStep memory step)
    {
        step.sqrtPriceStartX96 = cursor.sqrtPriceX96;
        (step.tickNext, step.initialized) =
            self.tickBitmap.nextInitializedTickWithinOneWord(cursor.tick, params.tickSpacing, params.zeroForOne);
        // The bitmap knows nothing of the tick range's ends.
        if (step.tickNext < MarketTickMath.MIN_TICK) step.tickNext = MarketTickMath.MIN_TICK;
        if (step.tickNext > MarketTickMath.MAX_TICK) step.tickNext = MarketTickMath.MAX_TICK;
        step.sqrtPriceNextX96 = MarketTickMath.sqrtRatioAtTick(step.tickNext);
        uint160 target = (params.zeroForOne ? step.sqrtPriceNextX96 < params.sqrtPriceLimitX96 : step.sqrtPriceNextX96 > params.sqrtPriceLimitX96)
            ? params.sqrtPriceLimitX96
            : step.sqrtPriceNextX96;
        (cursor.sqrtPriceX96, step.amountIn, step.amountOut, step.feeAmount) =
            MarketSwapMath.computeSwapStep(cursor.sqrtPriceX96, target, cursor.liquidity, cursor.amountRemaining, params.feePips);
    }
}
