// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// 512-bit intermediate multiply-then-divide, so that Q96 prices times liquidity never overflow.
library MarketFullMath {
    /// floor(a * b / d), reverting when the result does not fit 256 bits or d is zero.
    function mulDiv(uint256 a, uint256 b, uint256 d) internal pure returns (uint256 result) {
        unchecked {
            // The product as hi * 2^256 + lo, from its residues mod 2^256 and mod 2^256 - 1.
            uint256 lo = a * b;
            uint256 mm = mulmod(a, b, type(uint256).max);
            uint256 hi = mm - lo - (mm < lo ? 1 : 0);
            if (hi == 0) {
                require(d > 0, "mulDiv: division by zero");
                return lo / d;
            }
            require(d > hi, "mulDiv: overflow");
            // Make the product an exact multiple of d.
            uint256 remainder = mulmod(a, b, d);
            hi -= remainder > lo ? 1 : 0;
            lo -= remainder;
            // Divide d's power-of-two factor out of both d and the product.
            uint256 twos = d & (0 - d);
            d /= twos;
            lo /= twos;
            lo |= hi * ((0 - twos) / twos + 1);
            // d is now odd, so it has an inverse mod 2^256; each Newton step doubles the correct low
            // bits, from 4 (3d xor 2) to 256.
            uint256 inverse = (3 * d) ^ 2;
            for (uint256 i = 0; i < 6; i++) {
                inverse *= 2 - d * inverse;
            }
            // The quotient is exact, so multiplying by the inverse mod 2^256 yields it.
            result = lo * inverse;
        }
    }

    /// ceil(a * b / d).
    function mulDivUp(uint256 a, uint256 b, uint256 d) internal pure returns (uint256 result) {
        result = mulDiv(a, b, d);
        if (mulmod(a, b, d) > 0) result += 1;
    }

    function divUp(uint256 a, uint256 d) internal pure returns (uint256) {
        return a / d + (a % d > 0 ? 1 : 0);
    }
}

/// Ticks and Q64.96 square-root prices: sqrt(1.0001^tick) * 2^96.
library MarketTickMath {
    int24 internal constant MIN_TICK = -887272;
    int24 internal constant MAX_TICK = 887272;
    uint160 internal constant MIN_SQRT_RATIO = 4295128739;
    uint160 internal constant MAX_SQRT_RATIO = 1461446703485210103287273052203988822378723970342;

    /// sqrt(1.0001^tick) in Q64.96, rounded up: the product of the factors 1.0001^(-2^i / 2) (Q128,
    /// rounded down) for the set bits of |tick|, inverted for positive ticks.
    function sqrtRatioAtTick(int24 tick) internal pure returns (uint160) {
        uint256 absTick = tick < 0 ? uint256(-int256(tick)) : uint256(int256(tick));
        require(absTick <= uint256(int256(MAX_TICK)), "tick out of range");
        uint256 ratio = 1 << 128;
        if ((absTick & 0x1) != 0) ratio = (ratio * 0xfffcb933bd6fad37aa2d162d1a594001) >> 128;
        if ((absTick & 0x2) != 0) ratio = (ratio * 0xfff97272373d413259a46990580e2139) >> 128;
        if ((absTick & 0x4) != 0) ratio = (ratio * 0xfff2e50f5f656932ef12357cf3c7fdcb) >> 128;
        if ((absTick & 0x8) != 0) ratio = (ratio * 0xffe5caca7e10e4e61c3624eaa0941ccf) >> 128;
        if ((absTick & 0x10) != 0) ratio = (ratio * 0xffcb9843d60f6159c9db58835c926643) >> 128;
        if ((absTick & 0x20) != 0) ratio = (ratio * 0xff973b41fa98c081472e6896dfb254bf) >> 128;
        if ((absTick & 0x40) != 0) ratio = (ratio * 0xff2ea16466c96a3843ec78b326b52860) >> 128;
        if ((absTick & 0x80) != 0) ratio = (ratio * 0xfe5dee046a99a2a811c461f1969c3052) >> 128;
        if ((absTick & 0x100) != 0) ratio = (ratio * 0xfcbe86c7900a88aedcffc83b479aa3a3) >> 128;
        if ((absTick & 0x200) != 0) ratio = (ratio * 0xf987a7253ac413176f2b074cf7815e53) >> 128;
        if ((absTick & 0x400) != 0) ratio = (ratio * 0xf3392b0822b70005940c7a398e4b70f2) >> 128;
        if ((absTick & 0x800) != 0) ratio = (ratio * 0xe7159475a2c29b7443b29c7fa6e889d8) >> 128;
        if ((absTick & 0x1000) != 0) ratio = (ratio * 0xd097f3bdfd2022b8845ad8f792aa5825) >> 128;
        if ((absTick & 0x2000) != 0) ratio = (ratio * 0xa9f746462d870fdf8a65dc1f90e061e4) >> 128;
        if ((absTick & 0x4000) != 0) ratio = (ratio * 0x70d869a156d2a1b890bb3df62baf32f6) >> 128;
        if ((absTick & 0x8000) != 0) ratio = (ratio * 0x31be135f97d08fd981231505542fcfa5) >> 128;
        if ((absTick & 0x10000) != 0) ratio = (ratio * 0x9aa508b5b7a84e1c677de54f3e99bc8) >> 128;
        if ((absTick & 0x20000) != 0) ratio = (ratio * 0x5d6af8dedb81196699c329225ee604) >> 128;
        if ((absTick & 0x40000) != 0) ratio = (ratio * 0x2216e584f5fa1ea926041bedfe97) >> 128;
        if ((absTick & 0x80000) != 0) ratio = (ratio * 0x48a170391f7dc42444e8fa2) >> 128;
        if (tick > 0) ratio = type(uint256).max / ratio;
        return uint160((ratio >> 32) + (ratio % (1 << 32) == 0 ? 0 : 1));
    }

    /// The greatest tick whose square-root price is at most `sqrtPriceX96`, by binary search.
    function tickAtSqrtRatio(uint160 sqrtPriceX96) internal pure returns (int24) {
        require(sqrtPriceX96 >= MIN_SQRT_RATIO && sqrtPriceX96 < MAX_SQRT_RATIO, "price out of range");
        int256 low = MIN_TICK;
        int256 high = MAX_TICK;
        while (low < high) {
            int256 mid = low + (high - low + 1) / 2;
            if (sqrtRatioAtTick(int24(mid)) <= sqrtPriceX96) low = mid;
            else high = mid - 1;
        }
        return int24(low);
    }

    /// The most liquidity one tick may reference, so that the sum over every usable tick fits a uint128.
    function maxLiquidityPerTick(int24 tickSpacing) internal pure returns (uint128) {
        int24 minTick = (MIN_TICK / tickSpacing) * tickSpacing;
        int24 maxTick = (MAX_TICK / tickSpacing) * tickSpacing;
        uint24 numTicks = uint24((maxTick - minTick) / tickSpacing) + 1;
        return type(uint128).max / numTicks;
    }
}


/// Token amounts and price moves for liquidity L between two square-root prices (Q64.96), rounded as
/// Uniswap V3 rounds them: always in the pool's favour.
library MarketSqrtPriceMath {
    uint256 internal constant Q96 = 1 << 96;

    /// token0 held by L between the two prices: L * (sqrtB - sqrtA) / (sqrtA * sqrtB).
    function amount0Delta(uint160 sqrtA, uint160 sqrtB, uint128 liquidity, bool roundUp) internal pure returns (uint256) {
        if (sqrtA > sqrtB) (sqrtA, sqrtB) = (sqrtB, sqrtA);
        require(sqrtA > 0, "zero price");
        uint256 scaled = uint256(liquidity) << 96;
        uint256 diff = sqrtB - sqrtA;
        return roundUp
            ? MarketFullMath.divUp(MarketFullMath.mulDivUp(scaled, diff, sqrtB), sqrtA)
            : MarketFullMath.mulDiv(scaled, diff, sqrtB) / sqrtA;
    }

    /// token1 held by L between the two prices: L * (sqrtB - sqrtA).
    function amount1Delta(uint160 sqrtA, uint160 sqrtB, uint128 liquidity, bool roundUp) internal pure returns (uint256) {
        if (sqrtA > sqrtB) (sqrtA, sqrtB) = (sqrtB, sqrtA);
        return roundUp
            ? MarketFullMath.mulDivUp(liquidity, sqrtB - sqrtA, Q96)
            : MarketFullMath.mulDiv(liquidity, sqrtB - sqrtA, Q96);
    }

    /// What a liquidity change of `delta` moves in token0: owed to the pool (rounded up) when positive,
    /// paid by it (rounded down) when negative.
    function signedAmount0Delta(uint160 sqrtA, uint160 sqrtB, int128 delta) internal pure returns (int256) {
        return delta < 0
            ? -int256(amount0Delta(sqrtA, sqrtB, uint128(-delta), false))
            : int256(amount0Delta(sqrtA, sqrtB, uint128(delta), true));
    }

    /// What a liquidity change of `delta` moves in token1, rounded like signedAmount0Delta.
    function signedAmount1Delta(uint160 sqrtA, uint160 sqrtB, int128 delta) internal pure returns (int256) {
        return delta < 0
            ? -int256(amount1Delta(sqrtA, sqrtB, uint128(-delta), false))
            : int256(amount1Delta(sqrtA, sqrtB, uint128(delta), true));
    }

    /// The price after `amountIn` enters, rounded so that the pool never gives more than it should.
    function nextFromInput(uint160 sqrtP, uint128 liquidity, uint256 amountIn, bool zeroForOne)
        internal
        pure
        returns (uint160)
    {
        require(sqrtP > 0 && liquidity > 0, "no price or liquidity");
        return zeroForOne ? _nextFromAmount0(sqrtP, liquidity, amountIn, true) : _nextFromAmount1(sqrtP, liquidity, amountIn, true);
    }

    /// The price after `amountOut` leaves, rounded so that the pool never gives more than it should.
    function nextFromOutput(uint160 sqrtP, uint128 liquidity, uint256 amountOut, bool zeroForOne)
        internal
        pure
        returns (uint160)
    {
        require(sqrtP > 0 && liquidity > 0, "no price or liquidity");
        return zeroForOne ? _nextFromAmount1(sqrtP, liquidity, amountOut, false) : _nextFromAmount0(sqrtP, liquidity, amountOut, false);
    }

    /// token0 in (add) or out: sqrtP' = L * sqrtP / (L +- amount * sqrtP), rounded up. When the product
    /// overflows on the way in, the equal form L / (L / sqrtP + amount) is used instead.
    function _nextFromAmount0(uint160 sqrtP, uint128 liquidity, uint256 amount, bool add) private pure returns (uint160) {
        if (amount == 0) return sqrtP;
        uint256 scaled = uint256(liquidity) << 96;
        uint256 product;
        bool productFits;
        unchecked {
            product = amount * sqrtP;
            productFits = product / amount == sqrtP;
        }
        if (add) {
            if (productFits && scaled + product >= scaled) {
                return uint160(MarketFullMath.mulDivUp(scaled, sqrtP, scaled + product));
            }
            return uint160(MarketFullMath.divUp(scaled, scaled / sqrtP + amount));
        }
        require(productFits && scaled > product, "not enough liquidity");
        return _toUint160(MarketFullMath.mulDivUp(scaled, sqrtP, scaled - product));
    }

    /// token1 in (add: rounded down) or out (rounded up): sqrtP' = sqrtP +- amount / L.
    function _nextFromAmount1(uint160 sqrtP, uint128 liquidity, uint256 amount, bool add) private pure returns (uint160) {
        if (add) return _toUint160(uint256(sqrtP) + MarketFullMath.mulDiv(amount, Q96, liquidity));
        uint256 quotient = MarketFullMath.mulDivUp(amount, Q96, liquidity);
        require(sqrtP > quotient, "not enough liquidity");
        return uint160(sqrtP - quotient);
    }

    function _toUint160(uint256 value) private pure returns (uint160) {
        require(value <= type(uint160).max, "price overflow");
        return uint160(value);
    }
}

/// One step of a swap within a range of constant liquidity, as Uniswap V3's SwapMath computes it.
library MarketSwapMath {
    uint256 internal constant FEE_DENOMINATOR = 1e6;

    /// Moves the price from `sqrtP` towards `target` with `liquidity`, spending at most what remains of an
    /// exact input (`amountRemaining` > 0) or delivering at most what remains of an exact output (< 0).
    /// The fee (in hundredths of a bip) is charged on the input; an exact input that stops short of the
    /// target keeps its whole remainder as the fee.
    function computeSwapStep(uint160 sqrtP, uint160 target, uint128 liquidity, int256 amountRemaining, uint24 feePips)
        internal
        pure
        returns (uint160 sqrtNext, uint256 amountIn, uint256 amountOut, uint256 feeAmount)
    {
        bool zeroForOne = sqrtP >= target;
        bool exactIn = amountRemaining >= 0;
        if (exactIn) {
            uint256 lessFee = MarketFullMath.mulDiv(uint256(amountRemaining), FEE_DENOMINATOR - feePips, FEE_DENOMINATOR);
            amountIn = zeroForOne
                ? MarketSqrtPriceMath.amount0Delta(target, sqrtP, liquidity, true)
                : MarketSqrtPriceMath.amount1Delta(sqrtP, target, liquidity, true);
            sqrtNext = lessFee >= amountIn ? target : MarketSqrtPriceMath.nextFromInput(sqrtP, liquidity, lessFee, zeroForOne);
        } else {
            amountOut = zeroForOne
                ? MarketSqrtPriceMath.amount1Delta(target, sqrtP, liquidity, false)
                : MarketSqrtPriceMath.amount0Delta(sqrtP, target, liquidity, false);
            uint256 wanted = uint256(-amountRemaining);
            sqrtNext = wanted >= amountOut ? target : MarketSqrtPriceMath.nextFromOutput(sqrtP, liquidity, wanted, zeroForOne);
        }
        bool reached = target == sqrtNext;
        if (!(reached && exactIn)) {
            amountIn = zeroForOne
                ? MarketSqrtPriceMath.amount0Delta(sqrtNext, sqrtP, liquidity, true)
                : MarketSqrtPriceMath.amount1Delta(sqrtP, sqrtNext, liquidity, true);
        }
        if (!(reached && !exactIn)) {
            amountOut = zeroForOne
                ? MarketSqrtPriceMath.amount1Delta(sqrtNext, sqrtP, liquidity, false)
                : MarketSqrtPriceMath.amount0Delta(sqrtP, sqrtNext, liquidity, false);
        }
        if (!exactIn && amountOut > uint256(-amountRemaining)) amountOut = uint256(-amountRemaining);
        feeAmount = exactIn && sqrtNext != target
            ? uint256(amountRemaining) - amountIn
            : MarketFullMath.mulDivUp(amountIn, feePips, FEE_DENOMINATOR - feePips);
    }
}

/// Signed changes to unsigned liquidity that revert instead of wrapping.
library MarketLiquidityMath {
    function addDelta(uint128 x, int128 delta) internal pure returns (uint128) {
        return delta < 0 ? x - uint128(-delta) : x + uint128(delta);
    }
}

/// Which ticks are initialized, one bit per tick spacing: word `tick / spacing >> 8`, bit `tick / spacing & 255`.
library MarketTickBitmap {
    function position(int24 compressed) internal pure returns (int16 wordPos, uint8 bitPos) {
        wordPos = int16(compressed >> 8);
        bitPos = uint8(uint24(compressed) & 0xff);
    }

    function flipTick(mapping(int16 => uint256) storage self, int24 tick, int24 tickSpacing) internal {
        require(tick % tickSpacing == 0, "tick not spaced");
        (int16 wordPos, uint8 bitPos) = position(tick / tickSpacing);
        self[wordPos] ^= 1 << bitPos;
    }

    /// The next initialized tick at or left of `tick` (lte) or right of it, within the word of 256
    /// spacings that holds it; when none is, the word's last tick in that direction and `initialized` false.
    function nextInitializedTickWithinOneWord(
        mapping(int16 => uint256) storage self,
        int24 tick,
        int24 tickSpacing,
        bool lte
    ) internal view returns (int24 next, bool initialized) {
        int24 compressed = tick / tickSpacing;
        if (tick < 0 && tick % tickSpacing != 0) compressed--; // towards negative infinity
        if (lte) {
            (int16 wordPos, uint8 bitPos) = position(compressed);
            uint256 masked = self[wordPos] & ((1 << bitPos) - 1 + (1 << bitPos));
            initialized = masked != 0;
            next = initialized
                ? (compressed - int24(uint24(bitPos - MarketBitMath.mostSignificantBit(masked)))) * tickSpacing
                : (compressed - int24(uint24(bitPos))) * tickSpacing;
        } else {
            (int16 wordPos, uint8 bitPos) = position(compressed + 1);
            uint256 masked = self[wordPos] & ~((1 << bitPos) - 1);
            initialized = masked != 0;
            next = initialized
                ? (compressed + 1 + int24(uint24(MarketBitMath.leastSignificantBit(masked) - bitPos))) * tickSpacing
                : (compressed + 1 + int24(uint24(type(uint8).max - bitPos))) * tickSpacing;
        }
    }
}

/// Positions of the highest and lowest set bits of a non-zero word, by halving.
library MarketBitMath {
    function mostSignificantBit(uint256 x) internal pure returns (uint8 r) {
        require(x > 0, "zero has no bits");
        for (uint256 shift = 128; shift > 0; shift >>= 1) {
            if (x >= 1 << shift) {
                x >>= shift;
                r += uint8(shift);
            }
        }
    }

    function leastSignificantBit(uint256 x) internal pure returns (uint8 r) {
        require(x > 0, "zero has no bits");
        r = 255;
        for (uint256 shift = 128; shift > 0; shift >>= 1) {
            if (x & ((1 << shift) - 1) > 0) r -= uint8(shift);
            else x >>= shift;
        }
    }
}
