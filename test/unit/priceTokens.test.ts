import type { Address } from "viem";
import { describe, expect, test } from "vitest";
import type { IndexedPool } from "../../api/index/readPools";
import { concentratedBandDepth, concentratedHoldings, constantProductBandDepth } from "../../api/market/bandDepth";
import { type MarketToken, priceTokens } from "../../api/market/priceTokens";
import { hookCanChangeSwap, quotePool, quotePoolSafely } from "../../api/market/quotePool";
import { compareRatio, formatRatio, type Ratio } from "../../api/market/ratio";
import { stableCurveBandDepth } from "../../api/market/stableCurveDepth";
import { sqrtRatioAtTick } from "../../api/market/tickMath";

const address = (n: number) => `0x${n.toString(16).padStart(40, "0")}` as Address;
const usdc: MarketToken = { symbol: "USDC", address: address(0x1c), decimals: 6 };
const usdt: MarketToken = { symbol: "USDT", address: address(0x1d), decimals: 6 };
const weth: MarketToken = { symbol: "WETH", address: address(0xee), decimals: 18 };
const aero: MarketToken = { symbol: "AERO", address: address(0xae), decimals: 18 };
// AERO first: a token's place in the list must not matter (WETH is priced before the tokens it quotes).
const tokens = [aero, usdc, usdt, weth];
const native = "0x0000000000000000000000000000000000000000";

let poolNumber = 0x1000;
/** A constant-product pool holding `whole0` and `whole1` whole tokens (so its price is whole1/whole0). */
function pair(
  token0: { address: string; decimals: number },
  token1: MarketToken,
  whole0: number,
  whole1: number,
  extra: Partial<IndexedPool> = {},
) {
  const pool: IndexedPool = {
    chainId: 8453,
    address: address(poolNumber++),
    kind: "uniswap-v2",
    factory: address(0xf),
    token0: token0.address as Address,
    token1: token1.address,
    fee: null,
    tickSpacing: null,
    hooks: null,
    reserve0: BigInt(Math.round(whole0 * 1e6)) * 10n ** BigInt(token0.decimals - 6),
    reserve1: BigInt(Math.round(whole1 * 1e6)) * 10n ** BigInt(token1.decimals - 6),
    sqrtPriceX96: null,
    liquidity: null,
    tick: null,
    tickCount: 0,
    ticksIncomplete: false,
    blockNumber: 7n,
    volume0: 0n,
    volume1: 0n,
    volumeSince: 0n,
    ...extra,
  };
  return quotePool(pool, [], token0.decimals, token1.decimals);
}

const price = (quotes: ReturnType<typeof pair>[], minDepthUsd = 50_000n) =>
  priceTokens({
    tokens,
    quotes,
    weth: weth.address,
    parStables: new Set([usdc.address, usdt.address]),
    minDepthUsd: { num: minDepthUsd, den: 1n },
    maxPools: 5,
  });
const usdOf = (prices: ReturnType<typeof price>, token: MarketToken) => prices.get(token.address)?.usd ?? null;
const asNumber = (r: Ratio | null) => (r ? Number(formatRatio(r, 12)) : null);

describe("priceTokens", () => {
  test("WETH: the median of the five deepest stablecoin pools; a sixth, shallower one does not count", () => {
    // Depth grows with size; prices 2990..3010, and a sixth pool shallower than all at a wild 9000.
    const quotes = [
      pair(weth, usdc, 1_000, 3_000_000),
      pair(weth, usdc, 2_000, 6_020_000),
      pair(weth, usdt, 3_000, 8_970_000),
      pair(weth, usdc, 4_000, 12_040_000),
      pair(weth, usdt, 5_000, 14_950_000),
      pair(weth, usdc, 100, 900_000),
    ];
    const prices = price(quotes, 10_000n);
    const wethPrice = prices.get(weth.address);
    expect(wethPrice?.pools.map((c) => c.quote.pool.address)).toEqual([4, 3, 2, 1, 0].map((i) => quotes[i]?.pool.address));
    expect(asNumber(usdOf(prices, weth))).toBe(3000);
    expect(wethPrice?.excluded.map((c) => c.exclusion)).toEqual(["NOT_AMONG_DEEPEST"]);
  });

  test("the minimum depth keeps a thin pool with a wild price out, and no qualifying pool means no price", () => {
    const prices = price([pair(weth, usdc, 1_000, 3_000_000), pair(weth, usdc, 0.001, 1_000)]);
    expect(asNumber(usdOf(prices, weth))).toBe(3000);
    expect(prices.get(weth.address)?.excluded.map((c) => c.exclusion)).toEqual(["BELOW_MIN_DEPTH"]);
    expect(usdOf(price([pair(weth, usdc, 0.001, 1_000)]), weth)).toBeNull();
  });

  test("a token priced via WETH takes WETH's median; an even count is the mean of the two middle pools", () => {
    const prices = price([
      pair(weth, usdc, 1_000, 3_000_000),
      pair(aero, weth, 3_000_000, 1_000), // 1 AERO = 1/3000 WETH = 1 USD
      pair(aero, usdc, 10_000_000, 11_000_000), // 1.1 USD
    ]);
    const aeroPrice = prices.get(aero.address);
    expect(aeroPrice?.pools.map((c) => c.route).sort()).toEqual(["STABLECOIN", "VIA_WETH"]);
    expect(asNumber(usdOf(prices, aero))).toBe(1.05);
  });

  test("native ETH pools (Uniswap V4) count as WETH; a hook that can change swaps is listed, not counted", () => {
    const hooked = "0x00000000000000000000000000000000000000c0"; // beforeSwap + afterSwap
    const prices = price([
      pair({ address: native, decimals: 18 }, usdc, 1_000, 3_000_000, { kind: "uniswap-v4" }),
      pair({ address: native, decimals: 18 }, usdc, 2_000, 2_000_000, { kind: "uniswap-v4", hooks: hooked }),
    ]);
    const wethPrice = prices.get(weth.address);
    expect(asNumber(wethPrice?.usd ?? null)).toBe(3000);
    expect(wethPrice?.excluded.map((c) => c.exclusion)).toEqual(["HOOK_CAN_CHANGE_SWAP"]);
  });

  test("stablecoins are priced against the other stablecoins only, never through WETH", () => {
    const prices = price([pair(usdc, usdt, 10_000_000, 9_990_000), pair(weth, usdc, 1_000, 3_000_000)]);
    expect(asNumber(usdOf(prices, usdc))).toBe(0.999);
    expect(compareRatio(usdOf(prices, usdt) as Ratio, { num: 1_000n, den: 999n })).toBe(0);
    expect(prices.get(usdc.address)?.pools.every((c) => c.route === "STABLECOIN")).toBe(true);
  });

  test("depth in USD counts both sides: token1 to raise the price 2% and token0 to lower it 2%", () => {
    const prices = price([pair(weth, usdc, 1_000, 3_000_000)]);
    const depth = Number(formatRatio(prices.get(weth.address)?.pools[0]?.depthUsd as Ratio, 6));
    const expected = 3_000_000 * (Math.sqrt(1.02) - 1) + 1_000 * (1 / Math.sqrt(0.98) - 1) * 3000;
    expect(Math.abs(depth - expected) / expected).toBeLessThan(1e-6);
  });
});

describe("quotePool", () => {
  const v3Row = (extra: Partial<IndexedPool> = {}): IndexedPool => ({
    ...pair(weth, usdc, 1, 1).pool,
    kind: "uniswap-v3",
    reserve0: null,
    reserve1: null,
    sqrtPriceX96: sqrtRatioAtTick(-200_000),
    tick: -200_000,
    liquidity: 10n ** 18n,
    ...extra,
  });
  const ticks = [
    { tick: -200_100, liquidityNet: 10n ** 18n },
    { tick: -199_900, liquidityNet: -(10n ** 18n) },
  ];

  test("a concentrated pool: its spot price, its depth across its ticks and its holdings", () => {
    const quote = quotePool(v3Row(), ticks, 18, 6);
    const state = { sqrtPriceX96: sqrtRatioAtTick(-200_000), tick: -200_000, liquidity: 10n ** 18n };
    expect(quote.spot).toEqual({ num: state.sqrtPriceX96 ** 2n, den: 2n ** 192n });
    expect(quote.depth).toEqual(concentratedBandDepth(state, ticks));
    expect(quote.holdings).toEqual(concentratedHoldings(state, ticks));
    expect(quote.flags).toEqual([]);
  });

  test("ticks that contradict the in-range liquidity flag the pool INCONSISTENT_TICKS", () => {
    expect(quotePool(v3Row(), [{ tick: -199_990, liquidityNet: -(10n ** 19n) }], 18, 6).flags).toEqual(["INCONSISTENT_TICKS"]);
    expect(quotePool(v3Row(), [{ tick: -300_000, liquidityNet: 10n ** 19n }], 18, 6).flags).toEqual(["INCONSISTENT_TICKS"]);
  });

  test("a pool whose ticks stopped being stored past the bound has a price but no depth: listed INCOMPLETE_TICKS, never counted", () => {
    const incomplete = quotePool(v3Row({ ticksIncomplete: true }), ticks, 18, 6);
    expect(incomplete).toMatchObject({ depth: null, holdings: null, flags: ["INCOMPLETE_TICKS"] });
    expect(incomplete.spot).toEqual(quotePool(v3Row(), ticks, 18, 6).spot);
    const prices = price([incomplete, pair(weth, usdc, 1_000, 3_000_000)]);
    expect(prices.get(weth.address)?.excluded.map((c) => c.exclusion)).toEqual(["INCOMPLETE_TICKS"]);
  });

  test("a pool whose state cannot be quoted (a tick out of range) is left out alone, flagged UNQUOTABLE", () => {
    const bad = quotePoolSafely(v3Row(), [{ tick: 900_000, liquidityNet: 1n }], 18, 6);
    expect(bad).toMatchObject({ spot: null, depth: null, flags: ["UNQUOTABLE"] });
    const prices = price([bad, pair(weth, usdc, 1_000, 3_000_000)]);
    expect(prices.get(weth.address)?.excluded.map((c) => c.exclusion)).toEqual(["UNQUOTABLE"]);
  });

  test("an empty pool has no price (EMPTY); a stable pool is priced and measured on its curve", () => {
    expect(quotePool(v3Row({ sqrtPriceX96: 0n }), ticks, 18, 6).flags).toEqual(["EMPTY"]);
    expect(pair(weth, usdc, 0, 0).flags).toEqual(["EMPTY"]);
    const stable = pair(usdc, usdt, 1_000_000, 1_000_000, { kind: "aerodrome-stable" });
    expect(stable.depth).toEqual(stableCurveBandDepth(10n ** 12n, 10n ** 12n, 6, 6));
    expect(stable.holdings).toEqual({ amount0: 10n ** 12n, amount1: 10n ** 12n });
    expect(pair(usdc, usdt, 1_000_000, 1_000_000).depth).toEqual(constantProductBandDepth(10n ** 12n, 10n ** 12n));
  });

  test("hooks: beforeSwap, afterSwap and the two swap deltas flag a V4 pool; other permissions do not", () => {
    const hooks = (bits: number) => `0x${bits.toString(16).padStart(40, "0")}` as Address;
    for (const bit of [7, 6, 3, 2]) expect(hookCanChangeSwap(hooks(1 << bit), 3000), `bit ${bit}`).toBe(true);
    for (const bit of [13, 12, 11, 10, 9, 8, 5, 4, 1, 0]) expect(hookCanChangeSwap(hooks(1 << bit), 3000), `bit ${bit}`).toBe(false);
    // A dynamic fee (0x800000) is the hook's to set at any time, whatever its permissions.
    expect(hookCanChangeSwap(hooks(1 << 13), 0x800000)).toBe(true);
    expect(hookCanChangeSwap(null, 0x800000)).toBe(false);
    expect(hookCanChangeSwap(null, 3000)).toBe(false);
    expect(pair(weth, usdc, 1, 1, { hooks: hooks(1 << 7) }).flags).toEqual(["HOOK_CAN_CHANGE_SWAP"]);
  });
});

describe("priceTokens: what does not count", () => {
  test("pools of untracked tokens and native ETH against WETH are no candidates", () => {
    const stranger: MarketToken = { symbol: "X", address: address(0x99), decimals: 18 };
    const prices = price([
      pair(weth, usdc, 1_000, 3_000_000),
      pair(stranger, usdc, 1_000_000, 1_000_000),
      pair({ address: native, decimals: 18 }, weth, 1_000, 1_000),
    ]);
    const wethPrice = prices.get(weth.address);
    expect(wethPrice?.pools.length).toBe(1);
    expect(wethPrice?.excluded).toEqual([]);
    expect(prices.has(stranger.address)).toBe(false);
  });

  test("a token paired only with WETH has no price when WETH has none; without a WETH token it is priced through stablecoins only", () => {
    const prices = price([pair(aero, weth, 3_000_000, 1_000)]);
    expect(usdOf(prices, weth)).toBeNull();
    expect(prices.get(aero.address)).toMatchObject({ usd: null, pools: [], excluded: [] });
    const noWeth = priceTokens({
      tokens: [usdc, aero],
      quotes: [pair(aero, usdc, 10_000_000, 11_000_000), pair(aero, weth, 3_000_000, 1_000)],
      weth: weth.address,
      parStables: new Set([usdc.address]),
      minDepthUsd: { num: 1n, den: 1n },
      maxPools: 5,
    });
    expect(noWeth.get(aero.address)?.pools.map((c) => c.route)).toEqual(["STABLECOIN"]);
  });

  test("a stablecoin is never priced through WETH, whatever the order of the tokens", () => {
    const prices = priceTokens({
      tokens: [weth, usdc, usdt],
      quotes: [pair(weth, usdc, 1_000, 3_000_000), pair(weth, usdt, 1_000, 3_000_000)],
      weth: weth.address,
      parStables: new Set([usdc.address, usdt.address]),
      minDepthUsd: { num: 1n, den: 1n },
      maxPools: 5,
    });
    expect(usdOf(prices, weth)).not.toBeNull();
    expect(usdOf(prices, usdc)).toBeNull();
    expect(usdOf(prices, usdt)).toBeNull();
  });

  test("a concentrated pool whose ticks contradict its liquidity is listed as INCONSISTENT_TICKS, after the deeper ones", () => {
    const broken = quotePool(
      {
        ...pair(weth, usdc, 1, 1).pool,
        kind: "uniswap-v3",
        sqrtPriceX96: 2n ** 96n * 10n ** 3n,
        tick: 0,
        liquidity: 10n,
        reserve0: null,
        reserve1: null,
      },
      [{ tick: 10, liquidityNet: -11n }],
      18,
      6,
    );
    const thin = pair(weth, usdc, 0.01, 30);
    const result = price([broken, pair(weth, usdc, 1_000, 3_000_000), thin]).get(weth.address);
    expect(result?.pools.length).toBe(1);
    expect(result?.excluded.map((c) => c.exclusion)).toEqual(["BELOW_MIN_DEPTH", "INCONSISTENT_TICKS"]);
  });

  test("a depth exactly at the minimum counts; flagged and empty pools are listed after the others", () => {
    const one = pair(weth, usdc, 1_000, 3_000_000);
    const exactDepth = price([one]).get(weth.address)?.pools[0]?.depthUsd as Ratio;
    const at = priceTokens({
      tokens,
      quotes: [pair(weth, usdc, 0, 0), one],
      weth: weth.address,
      parStables: new Set([usdc.address]),
      minDepthUsd: exactDepth,
      maxPools: 5,
    }).get(weth.address);
    expect(at?.pools.length).toBe(1);
    expect(at?.excluded.map((c) => c.exclusion)).toEqual(["EMPTY"]);
  });
});
