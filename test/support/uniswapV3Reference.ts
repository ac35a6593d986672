/**
 * Uniswap V3's swap math in TypeScript bigints, as its whitepaper and core libraries define it (TickMath,
 * SqrtPriceMath, SwapMath, the tick bitmap's one-word steps): the reference the devnet's V3 pool and V4
 * PoolManager fixtures are tested against. Amounts are the pool's: positive is paid in.
 */

const q96 = 1n << 96n;
const maxUint256 = (1n << 256n) - 1n;
export const minTick = -887_272;
export const maxTick = 887_272;
export const minSqrtRatio = 4_295_128_739n;
export const maxSqrtRatio = 1_461_446_703_485_210_103_287_273_052_203_988_822_378_723_970_342n;

/** sqrt(1.0001^-2^i / 2) in Q128 for bit i of |tick|: TickMath's constants. */
const tickFactors = [
  0xfffcb933bd6fad37aa2d162d1a594001n,
  0xfff97272373d413259a46990580e2139n,
  0xfff2e50f5f656932ef12357cf3c7fdcbn,
  0xffe5caca7e10e4e61c3624eaa0941ccfn,
  0xffcb9843d60f6159c9db58835c926643n,
  0xff973b41fa98c081472e6896dfb254bfn,
  0xff2ea16466c96a3843ec78b326b52860n,
  0xfe5dee046a99a2a811c461f1969c3052n,
  0xfcbe86c7900a88aedcffc83b479aa3a3n,
  0xf987a7253ac413176f2b074cf7815e53n,
  0xf3392b0822b70005940c7a398e4b70f2n,
  0xe7159475a2c29b7443b29c7fa6e889d8n,
  0xd097f3bdfd2022b8845ad8f792aa5825n,
  0xa9f746462d870fdf8a65dc1f90e061e4n,
  0x70d869a156d2a1b890bb3df62baf32f6n,
  0x31be135f97d08fd981231505542fcfa5n,
  0x9aa508b5b7a84e1c677de54f3e99bc8n,
  0x5d6af8dedb81196699c329225ee604n,
  0x2216e584f5fa1ea926041bedfe97n,
  0x48a170391f7dc42444e8fa2n,
];

/** TickMath.getSqrtRatioAtTick: sqrt(1.0001^tick) in Q64.96, rounded up. */
export function sqrtRatioAtTick(tick: number): bigint {
  const absTick = Math.abs(tick);
  if (absTick > maxTick) throw new Error(`tick ${tick} out of range`);
  let ratio = 1n << 128n;
  tickFactors.forEach((factor, bit) => {
    if (absTick & (1 << bit)) ratio = (ratio * factor) >> 128n;
  });
  if (tick > 0) ratio = maxUint256 / ratio;
  return (ratio >> 32n) + (ratio % (1n << 32n) === 0n ? 0n : 1n);
}

/** TickMath.getTickAtSqrtRatio: the greatest tick whose sqrt ratio is at most `sqrtPriceX96`. */
export function tickAtSqrtRatio(sqrtPriceX96: bigint): number {
  let [low, high] = [minTick, maxTick];
  while (low < high) {
    const mid = low + Math.ceil((high - low) / 2);
    if (sqrtRatioAtTick(mid) <= sqrtPriceX96) low = mid;
    else high = mid - 1;
  }
  return low;
}

const divUp = (a: bigint, b: bigint) => a / b + (a % b === 0n ? 0n : 1n);
const mulDivUp = (a: bigint, b: bigint, d: bigint) => divUp(a * b, d);

/** token0 between two prices for liquidity L (SqrtPriceMath.getAmount0Delta). */
export function amount0Delta(a: bigint, b: bigint, liquidity: bigint, roundUp: boolean): bigint {
  const [lo, hi] = a < b ? [a, b] : [b, a];
  const numerator = (liquidity << 96n) * (hi - lo);
  return roundUp ? divUp(divUp(numerator, hi), lo) : numerator / hi / lo;
}

/** token1 between two prices for liquidity L (SqrtPriceMath.getAmount1Delta). */
export function amount1Delta(a: bigint, b: bigint, liquidity: bigint, roundUp: boolean): bigint {
  const [lo, hi] = a < b ? [a, b] : [b, a];
  return roundUp ? mulDivUp(liquidity, hi - lo, q96) : (liquidity * (hi - lo)) / q96;
}

/** The price after an amount of token0 enters (add) or leaves, rounded up. Exact in bigints, so no overflow branch. */
function nextFromAmount0(sqrtP: bigint, liquidity: bigint, amount: bigint, add: boolean): bigint {
  if (amount === 0n) return sqrtP;
  const numerator = liquidity << 96n;
  const denominator = add ? numerator + amount * sqrtP : numerator - amount * sqrtP;
  if (denominator <= 0n) throw new Error("not enough liquidity");
  return mulDivUp(numerator, sqrtP, denominator);
}

/** The price after an amount of token1 enters (add, rounded down) or leaves (rounded up, then subtracted). */
function nextFromAmount1(sqrtP: bigint, liquidity: bigint, amount: bigint, add: boolean): bigint {
  if (add) return sqrtP + (amount * q96) / liquidity;
  const quotient = mulDivUp(amount, q96, liquidity);
  if (sqrtP <= quotient) throw new Error("not enough liquidity");
  return sqrtP - quotient;
}

/** SwapMath.computeSwapStep: towards `target`, spending (amountRemaining > 0) or delivering (< 0) at most what remains. */
export function computeSwapStep(sqrtP: bigint, target: bigint, liquidity: bigint, amountRemaining: bigint, feePips: number) {
  const fee = BigInt(feePips);
  const zeroForOne = sqrtP >= target;
  const exactIn = amountRemaining >= 0n;
  let sqrtNext: bigint;
  let amountIn = 0n;
  let amountOut = 0n;
  if (exactIn) {
    const lessFee = (amountRemaining * (1_000_000n - fee)) / 1_000_000n;
    amountIn = zeroForOne ? amount0Delta(target, sqrtP, liquidity, true) : amount1Delta(sqrtP, target, liquidity, true);
    sqrtNext =
      lessFee >= amountIn
        ? target
        : zeroForOne
          ? nextFromAmount0(sqrtP, liquidity, lessFee, true)
          : nextFromAmount1(sqrtP, liquidity, lessFee, true);
  } else {
    amountOut = zeroForOne ? amount1Delta(target, sqrtP, liquidity, false) : amount0Delta(sqrtP, target, liquidity, false);
    const wanted = -amountRemaining;
    sqrtNext =
      wanted >= amountOut
        ? target
        : zeroForOne
          ? nextFromAmount1(sqrtP, liquidity, wanted, false)
          : nextFromAmount0(sqrtP, liquidity, wanted, false);
  }
  const reached = sqrtNext === target;
  if (!(reached && exactIn)) {
    amountIn = zeroForOne ? amount0Delta(sqrtNext, sqrtP, liquidity, true) : amount1Delta(sqrtP, sqrtNext, liquidity, true);
  }
  if (!(reached && !exactIn)) {
    amountOut = zeroForOne ? amount1Delta(sqrtNext, sqrtP, liquidity, false) : amount0Delta(sqrtP, sqrtNext, liquidity, false);
  }
  if (!exactIn && amountOut > -amountRemaining) amountOut = -amountRemaining;
  const feeAmount = exactIn && sqrtNext !== target ? amountRemaining - amountIn : mulDivUp(amountIn, fee, 1_000_000n - fee);
  return { sqrtNext, amountIn, amountOut, feeAmount };
}

/** A concentrated pool's state: price, tick, in-range liquidity, fee, tick spacing and every initialized tick's liquidityNet. */
export type ReferencePool = {
  sqrtPriceX96: bigint;
  tick: number;
  liquidity: bigint;
  feePips: number;
  tickSpacing: number;
  liquidityNet: ReadonlyMap<number, bigint>;
};

/**
 * The next tick a swap step goes to: the nearest initialized tick at or below (zeroForOne) or above the
 * current one within its bitmap word of 256 spacings, else that word's last tick in that direction.
 */
function nextTickWithinOneWord(pool: ReferencePool, tick: number, zeroForOne: boolean): { next: number; initialized: boolean } {
  const spacing = pool.tickSpacing;
  const compressed = Math.floor(tick / spacing);
  const initialized = (c: number) => pool.liquidityNet.has(c * spacing);
  if (zeroForOne) {
    const wordStart = Math.floor(compressed / 256) * 256;
    for (let c = compressed; c >= wordStart; c--) if (initialized(c)) return { next: c * spacing, initialized: true };
    return { next: wordStart * spacing, initialized: false };
  }
  const wordEnd = Math.floor((compressed + 1) / 256) * 256 + 255;
  for (let c = compressed + 1; c <= wordEnd; c++) if (initialized(c)) return { next: c * spacing, initialized: true };
  return { next: wordEnd * spacing, initialized: false };
}

/**
 * A swap as Uniswap V3's pool runs it: steps to the next initialized tick (or bitmap word end), the price
 * limit or the end of the amount, crossing ticks by their liquidityNet. `amountSpecified` > 0 is an exact
 * input. Returns the pool's amounts, its state after, and the ticks crossed.
 */
export function referenceSwap(pool: ReferencePool, params: { zeroForOne: boolean; amountSpecified: bigint; sqrtPriceLimitX96: bigint }) {
  const { zeroForOne, amountSpecified, sqrtPriceLimitX96: limit } = params;
  const exactInput = amountSpecified > 0n;
  let { sqrtPriceX96, tick, liquidity } = pool;
  let remaining = amountSpecified;
  let calculated = 0n;
  const crossed: number[] = [];
  while (remaining !== 0n && sqrtPriceX96 !== limit) {
    const start = sqrtPriceX96;
    let { next, initialized } = nextTickWithinOneWord(pool, tick, zeroForOne);
    next = Math.min(Math.max(next, minTick), maxTick);
    const sqrtNext = sqrtRatioAtTick(next);
    const target = (zeroForOne ? sqrtNext < limit : sqrtNext > limit) ? limit : sqrtNext;
    const step = computeSwapStep(sqrtPriceX96, target, liquidity, remaining, pool.feePips);
    sqrtPriceX96 = step.sqrtNext;
    if (exactInput) {
      remaining -= step.amountIn + step.feeAmount;
      calculated -= step.amountOut;
    } else {
      remaining += step.amountOut;
      calculated += step.amountIn + step.feeAmount;
    }
    if (sqrtPriceX96 === sqrtNext) {
      if (initialized) {
        const net = pool.liquidityNet.get(next) ?? 0n;
        liquidity += zeroForOne ? -net : net;
        crossed.push(next);
      }
      tick = zeroForOne ? next - 1 : next;
    } else if (sqrtPriceX96 !== start) {
      tick = tickAtSqrtRatio(sqrtPriceX96);
    }
  }
  const used = amountSpecified - remaining;
  const [amount0, amount1] = zeroForOne === exactInput ? [used, calculated] : [calculated, used];
  return { amount0, amount1, sqrtPriceX96, tick, liquidity, crossed };
}

/** The initialized ticks that positions make, as [tick, liquidityGross, liquidityNet] in tick order. */
export function ticksOfPositions(
  positions: readonly { tickLower: number; tickUpper: number; liquidity: bigint }[],
): [number, bigint, bigint][] {
  const ticks = new Map<number, [bigint, bigint]>();
  const add = (tick: number, gross: bigint, net: bigint) => {
    const [g, n] = ticks.get(tick) ?? [0n, 0n];
    ticks.set(tick, [g + gross, n + net]);
  };
  for (const { tickLower, tickUpper, liquidity } of positions) {
    add(tickLower, liquidity, liquidity);
    add(tickUpper, liquidity, -liquidity);
  }
  return [...ticks.entries()].sort(([a], [b]) => a - b).map(([tick, [gross, net]]) => [tick, gross, net]);
}
