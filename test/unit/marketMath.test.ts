import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { concentratedBandDepth, concentratedHoldings, constantProductBandDepth } from "../../api/market/bandDepth";
import { ceilDiv, compareRatio, formatRatio, isqrt, medianRatio } from "../../api/market/ratio";
import { stableCurveBandDepth } from "../../api/market/stableCurveDepth";
import { maxTick, minTick, sqrtRatioAtTick } from "../../api/market/tickMath";

const q96 = 2 ** 96;
const relative = (a: number, b: number) => Math.abs(a - b) / Math.max(Math.abs(b), 1e-30);

describe("sqrtRatioAtTick", () => {
  test("equals Uniswap's TickMath at its published points and bounds", () => {
    expect(sqrtRatioAtTick(0)).toBe(2n ** 96n);
    expect(sqrtRatioAtTick(1)).toBe(79232123823359799118286999568n);
    expect(sqrtRatioAtTick(-1)).toBe(79224201403219477170569942574n);
    expect(sqrtRatioAtTick(minTick)).toBe(4295128739n);
    expect(sqrtRatioAtTick(maxTick)).toBe(1461446703485210103287273052203988822378723970342n);
    expect(() => sqrtRatioAtTick(maxTick + 1)).toThrow(RangeError);
    expect(() => sqrtRatioAtTick(0.5)).toThrow(RangeError);
  });

  test("is sqrt(1.0001^tick) * 2^96 to float precision, and increasing", () => {
    fc.assert(
      fc.property(fc.integer({ min: -400_000, max: 400_000 }), (tick) => {
        const exact = Number(sqrtRatioAtTick(tick)) / q96;
        expect(relative(exact, Math.sqrt(1.0001 ** tick))).toBeLessThan(1e-9);
        expect(sqrtRatioAtTick(tick + 1) > sqrtRatioAtTick(tick)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});

describe("ratio arithmetic", () => {
  test("isqrt is the floor square root", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 2n ** 300n }), (n) => {
        const r = isqrt(n);
        expect(r * r <= n && (r + 1n) * (r + 1n) > n).toBe(true);
      }),
      { numRuns: 500 },
    );
    expect(() => isqrt(-1n)).toThrow(/negative/);
  });

  test("ceilDiv rounds up to a whole unit, exact quotients stay exact, and nothing or less pays nothing", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 2n ** 200n }), fc.bigInt({ min: 1n, max: 10n ** 18n }), (a, b) => {
        const q = ceilDiv(a, b);
        expect(q * b >= a && (q - 1n) * b < a).toBe(true);
      }),
      { numRuns: 500 },
    );
    expect([ceilDiv(9n, 3n), ceilDiv(10n, 3n), ceilDiv(1n, 10n ** 12n), ceilDiv(10n ** 12n, 10n ** 12n)]).toEqual([3n, 4n, 1n, 1n]);
    expect([ceilDiv(0n, 5n), ceilDiv(-1n, 5n), ceilDiv(-7n, 3n)]).toEqual([0n, 0n, 0n]);
  });

  test("median: the middle of an odd count, the mean of the two middles of an even one, order-free", () => {
    const r = (num: bigint, den = 1n) => ({ num, den });
    expect(compareRatio(medianRatio([r(3n), r(1n), r(2n)]), r(2n))).toBe(0);
    expect(compareRatio(medianRatio([r(4n), r(1n), r(2n), r(3n)]), r(5n, 2n))).toBe(0);
    expect(compareRatio(medianRatio([r(1n, 3n)]), r(2n, 6n))).toBe(0);
    expect(() => medianRatio([])).toThrow(/median of nothing/);
  });

  test("formatRatio rounds half up at the digits asked, drops trailing zeros", () => {
    expect(formatRatio({ num: 5n, den: 2n }, 0)).toBe("3");
    expect(formatRatio({ num: 1n, den: 3n }, 6)).toBe("0.333333");
    expect(formatRatio({ num: 2n, den: 3n }, 6)).toBe("0.666667");
    expect(formatRatio({ num: 25n, den: 10n }, 6)).toBe("2.5");
    expect(formatRatio({ num: 0n, den: 7n }, 6)).toBe("0");
  });
});

describe("band depth (±2%)", () => {
  test("constant product: what x*y=k takes to move the price by 2% each way", () => {
    const depth = constantProductBandDepth(1_000n * 10n ** 18n, 3_000_000n * 10n ** 6n);
    expect(relative(Number(depth.token1In), 3e12 * (Math.sqrt(1.02) - 1))).toBeLessThan(1e-9);
    expect(relative(Number(depth.token0In), 1e21 * (1 / Math.sqrt(0.98) - 1))).toBeLessThan(1e-9);
    // Selling exactly token1In moves r1/r0 to 1.02 times the price.
    const r1 = 3e12 + Number(depth.token1In);
    const r0 = (1e21 * 3e12) / r1;
    expect(relative(r1 / r0 / (3e12 / 1e21), 1.02)).toBeLessThan(1e-9);
  });

  test("one range holding the whole band: the closed forms L*(sqrtP*sqrt(1.02) - sqrtP) and L*(1/(sqrtP*sqrt(0.98)) - 1/sqrtP)", () => {
    const sqrtPriceX96 = sqrtRatioAtTick(-200_000);
    const liquidity = 10n ** 18n;
    const ticks = [
      { tick: -210_000, liquidityNet: liquidity },
      { tick: -190_000, liquidityNet: -liquidity },
    ];
    const depth = concentratedBandDepth({ sqrtPriceX96, tick: -200_000, liquidity }, ticks);
    const sqrtP = Number(sqrtPriceX96) / q96;
    expect(depth).not.toBeNull();
    expect(relative(Number(depth?.token1In), 1e18 * (sqrtP * Math.sqrt(1.02) - sqrtP))).toBeLessThan(1e-9);
    expect(relative(Number(depth?.token0In), 1e18 * (1 / (sqrtP * Math.sqrt(0.98)) - 1 / sqrtP))).toBeLessThan(1e-9);
  });

  test("across ticks: liquidity added or removed inside the band changes the depth by exactly its segment", () => {
    const sqrtPriceX96 = sqrtRatioAtTick(0);
    const base = 10n ** 18n;
    const wide = [
      { tick: -1000, liquidityNet: base },
      { tick: 1000, liquidityNet: -base },
    ];
    // A second position on [60, 1000): inside the upper half of the band only.
    const stacked = [
      { tick: -1000, liquidityNet: base },
      { tick: 60, liquidityNet: base },
      { tick: 1000, liquidityNet: -2n * base },
    ];
    const state = { sqrtPriceX96, tick: 0, liquidity: base };
    const one = concentratedBandDepth(state, wide);
    const two = concentratedBandDepth(state, stacked);
    const upEdge = Math.sqrt(1.02);
    const extra = 1e18 * (upEdge - Number(sqrtRatioAtTick(60)) / q96);
    expect(relative(Number((two?.token1In ?? 0n) - (one?.token1In ?? 0n)), extra)).toBeLessThan(1e-6);
    expect(two?.token0In).toBe(one?.token0In);
  });

  test("ticks that contradict the in-range liquidity leave the pool out", () => {
    const state = { sqrtPriceX96: sqrtRatioAtTick(0), tick: 0, liquidity: 10n };
    expect(concentratedBandDepth(state, [{ tick: 10, liquidityNet: -11n }])).toBeNull();
    expect(concentratedHoldings(state, [{ tick: -10, liquidityNet: 11n }])).toBeNull();
  });

  test("holdings: the token amounts of every range at the current price", () => {
    const l = 10n ** 18n;
    const holdings = concentratedHoldings({ sqrtPriceX96: sqrtRatioAtTick(0), tick: 0, liquidity: l }, [
      { tick: -600, liquidityNet: l },
      { tick: 600, liquidityNet: -l },
      { tick: 1200, liquidityNet: l },
      { tick: 1800, liquidityNet: -l },
    ]);
    const s = (t: number) => Math.sqrt(1.0001 ** t);
    // [0, 600) and the out-of-range [1200, 1800) are all token0; [-600, 0) is token1.
    const amount0 = 1e18 * (1 - 1 / s(600)) + 1e18 * (1 / s(1200) - 1 / s(1800));
    const amount1 = 1e18 * (1 - s(-600));
    expect(relative(Number(holdings?.amount0), amount0)).toBeLessThan(1e-9);
    expect(relative(Number(holdings?.amount1), amount1)).toBeLessThan(1e-9);
  });

  test("Aerodrome stable curve: the solved edges have the curve's price at ±2% and keep x^3*y + y^3*x", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1_000, max: 10_000_000 }), fc.integer({ min: 1_000, max: 10_000_000 }), (a, b) => {
        const x = a * 1e6;
        const y = b * 1e6;
        const depth = stableCurveBandDepth(BigInt(x) * 10n ** 6n, BigInt(y) * 10n ** 18n, 6, 18);
        const price = (px: number, py: number) => (3 * px * px * py + py ** 3) / (px ** 3 + 3 * px * py * py);
        const k = (px: number, py: number) => px ** 3 * py + py ** 3 * px;
        const upY = y + Number(depth.token1In) / 1e18;
        const upX = solveX(upY, k(x, y));
        expect(relative(price(upX, upY) / price(x, y), 1.02)).toBeLessThan(1e-6);
        const downX = x + Number(depth.token0In) / 1e6;
        const downY = solveX(downX, k(x, y)); // symmetric curve: solve y from x the same way
        expect(relative(price(downX, downY) / price(x, y), 0.98)).toBeLessThan(1e-6);
      }),
      { numRuns: 50 },
    );
  });
});

/** The x with x^3*y + y^3*x = k for this y, by bisection in floats (the test's own solver). */
describe("stable curve, both tokens with 6 decimals", () => {
  test("a balanced USDC/USDT pool: symmetric depth, the curve's price at the edges", () => {
    const depth = stableCurveBandDepth(4_000_000n * 10n ** 6n, 4_000_000n * 10n ** 6n, 6, 6);
    const x = 4e6;
    const price = (px: number, py: number) => (3 * px * px * py + py ** 3) / (px ** 3 + 3 * px * py * py);
    const upY = x + Number(depth.token1In) / 1e6;
    expect(relative(price(solveX(upY, 2 * x ** 4), upY), 1.02)).toBeLessThan(1e-6);
    expect(relative(Number(depth.token0In), Number(depth.token1In) * (1 / 1.02) ** 0)).toBeLessThan(0.05);
  });
});

function solveX(y: number, k: number): number {
  let low = 0;
  let high = 1;
  while (high ** 3 * y + y ** 3 * high < k) high *= 2;
  for (let i = 0; i < 200; i++) {
    const mid = (low + high) / 2;
    if (mid ** 3 * y + y ** 3 * mid < k) low = mid;
    else high = mid;
  }
  return (low + high) / 2;
}

/** Uniswap V3's SqrtPriceMath, rounded up as a swap's input is: written here from its definition. */
const q = 2n ** 96n;
const amount1Up = (l: bigint, a: bigint, b: bigint) => (l * (b - a) + q - 1n) / q;
const amount0Up = (l: bigint, a: bigint, b: bigint) => {
  const inner = ((l << 96n) * (b - a) + b - 1n) / b;
  return (inner + a - 1n) / a;
};

describe("band depth, exactly as a V3 swap rounds it", () => {
  const l = 123_456_789_012_345_678_901n;
  const tick = 1_000;
  const sqrtP = sqrtRatioAtTick(tick) + 12_345n;
  const up = isqrt((sqrtP * sqrtP * 10_200n) / 10_000n);
  const down = isqrt((sqrtP * sqrtP * 9_800n) / 10_000n);

  test("with ticks on both sides inside the band: segment by segment, +net up and -net down", () => {
    const ticks = [
      { tick: -100_000, liquidityNet: l },
      { tick: 900, liquidityNet: l / 3n }, // in the lower half of the band: crossed going down
      { tick: tick, liquidityNet: l / 5n }, // the current tick itself: below the price, crossed going down first
      { tick: 1_100, liquidityNet: -(l / 2n) }, // in the upper half: crossed going up
      { tick: 100_000, liquidityNet: -l },
    ];
    const depth = concentratedBandDepth({ sqrtPriceX96: sqrtP, tick, liquidity: l }, ticks);
    const at1100 = sqrtRatioAtTick(1_100);
    expect(depth?.token1In).toBe(amount1Up(l, sqrtP, at1100) + amount1Up(l - l / 2n, at1100, up));
    const atTick = sqrtRatioAtTick(tick);
    const at900 = sqrtRatioAtTick(900);
    const afterTick = l - l / 5n;
    expect(depth?.token0In).toBe(
      amount0Up(l, atTick, sqrtP) + amount0Up(afterTick, at900, atTick) + amount0Up(afterTick - l / 3n, down, at900),
    );
  });

  test("ticks just inside the band are crossed, just outside are not; liquidity that runs out below zero leaves the pool out", () => {
    // 2% is 198.03 ticks: from tick 1,000 exactly, tick 1,198 is inside the band and 1,199 outside.
    const at1000 = { sqrtPriceX96: sqrtRatioAtTick(1_000), tick: 1_000, liquidity: l };
    const edge = isqrt((at1000.sqrtPriceX96 * at1000.sqrtPriceX96 * 10_200n) / 10_000n);
    const inside = concentratedBandDepth(at1000, [{ tick: 1_198, liquidityNet: -l }]);
    expect(inside?.token1In).toBe(amount1Up(l, at1000.sqrtPriceX96, sqrtRatioAtTick(1_198)));
    const outside = concentratedBandDepth(at1000, [{ tick: 1_199, liquidityNet: -l }]);
    expect(outside?.token1In).toBe(amount1Up(l, at1000.sqrtPriceX96, edge));
    expect(concentratedBandDepth({ sqrtPriceX96: sqrtP, tick, liquidity: l }, [{ tick: 950, liquidityNet: l + 1n }])).toBeNull();
    expect(concentratedBandDepth({ sqrtPriceX96: sqrtP, tick, liquidity: l }, [{ tick: 1_050, liquidityNet: -(l + 1n) }])).toBeNull();
    // Liquidity that reaches exactly zero is no contradiction: the rest of the band is empty.
    const emptied = concentratedBandDepth({ sqrtPriceX96: sqrtP, tick, liquidity: l }, [{ tick: 1_050, liquidityNet: -l }]);
    expect(emptied?.token1In).toBe(amount1Up(l, sqrtP, sqrtRatioAtTick(1_050)));
  });

  test("no ticks: the in-range liquidity across the whole band", () => {
    const depth = concentratedBandDepth({ sqrtPriceX96: sqrtP, tick, liquidity: l }, []);
    expect(depth).toEqual({ token1In: amount1Up(l, sqrtP, up), token0In: amount0Up(l, down, sqrtP) });
  });

  test("holdings: ticks at and below the current tick hold token1, ticks above token0; running out leaves it out", () => {
    const holdings = concentratedHoldings({ sqrtPriceX96: sqrtP, tick, liquidity: l }, [
      { tick: 500, liquidityNet: l / 2n },
      { tick: tick, liquidityNet: l / 2n },
      { tick: 2_000, liquidityNet: -l },
    ]);
    const atTick = sqrtRatioAtTick(tick);
    expect(holdings?.amount1).toBe((l * (sqrtP - atTick)) / q + ((l / 2n) * (atTick - sqrtRatioAtTick(500))) / q);
    expect(holdings?.amount0).toBe(((l << 96n) * (sqrtRatioAtTick(2_000) - sqrtP)) / sqrtRatioAtTick(2_000) / sqrtP);
    expect(concentratedHoldings({ sqrtPriceX96: sqrtP, tick, liquidity: l }, [{ tick: 2_000, liquidityNet: -(l + 1n) }])).toBeNull();
  });

  test("constant product: rounded to whole base units the way the closed form says", () => {
    expect(constantProductBandDepth(10_000n, 40_000n)).toEqual({
      token1In: isqrt((40_000n * 40_000n * 10_200n) / 10_000n) - 40_000n,
      token0In: isqrt((10_000n * 10_000n * 10_000n) / 9_800n) - 10_000n,
    });
  });

  test("compareRatio orders both ways; the median sorts by it", () => {
    expect(compareRatio({ num: 1n, den: 3n }, { num: 1n, den: 2n })).toBe(-1);
    expect(compareRatio({ num: 1n, den: 2n }, { num: 1n, den: 3n })).toBe(1);
    expect(compareRatio({ num: 2n, den: 4n }, { num: 1n, den: 2n })).toBe(0);
    const r = (n: bigint) => ({ num: n, den: 1n });
    expect(medianRatio([r(9n), r(1n), r(5n), r(7n), r(3n)])).toEqual(r(5n));
  });

  test("isqrt at small and exact squares", () => {
    expect([0n, 1n, 2n, 3n, 4n, 15n, 16n, 17n].map(isqrt)).toEqual([0n, 1n, 1n, 1n, 2n, 3n, 4n, 4n]);
    expect(isqrt(2n ** 200n)).toBe(2n ** 100n);
  });

  test("sqrtRatioAtTick refuses ticks just outside its range, either side, and non-integers", () => {
    expect(() => sqrtRatioAtTick(minTick - 1)).toThrow(/out of range/);
    expect(() => sqrtRatioAtTick(maxTick + 1)).toThrow(/out of range/);
    expect(() => sqrtRatioAtTick(1.5)).toThrow(/out of range/);
    expect(sqrtRatioAtTick(maxTick - 1)).toBeLessThan(sqrtRatioAtTick(maxTick));
  });
});
