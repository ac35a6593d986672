import { type Result, success } from "../errors";
import { oncePer } from "../memo/oncePer";
import type { MarketSnapshot } from "./buildMarketSnapshot";
import type { DexMetricsResponse } from "./DexMetricsResponse";
import { priceDigits, usdDigits } from "./describePool";
import { addRatio, formatRatio, mulRatio, type Ratio } from "./ratio";
import type { ReadMarket } from "./readMarket";

type Totals = { pools: number; reserve: Ratio; depth: Ratio; volume: Ratio };

const zero: Ratio = { num: 0n, den: 1n };
const emptyTotals = (): Totals => ({ pools: 0, reserve: zero, depth: zero, volume: zero });

/**
 * Reserves, ±2% depth and volume of the indexed pools whose two tokens have a USD price, each valued at
 * the token's median price (exact until the figures are formatted), with a coverage object naming
 * exactly the tokens, DEXes and pools summed, every other indexed pool by why it is left out, and the
 * planned pools by outcome: never a whole-chain total.
 */
export async function summarizeDexMetrics(readMarket: ReadMarket): Promise<Result<DexMetricsResponse>> {
  const market = await readMarket();
  if (!market.ok) return market;
  const { snapshot, provenance } = market.value;
  return success({ ...summaryOf(snapshot), provenance });
}

/** The summary of one snapshot, computed once however many requests read it. */
const summaryOf = oncePer((snapshot: MarketSnapshot): Omit<DexMetricsResponse, "provenance"> => {
  const usdPerBaseUnit = usdPerBaseUnitOf(snapshot);
  const totals = emptyTotals();
  const byDex = new Map<string, Totals>();
  const covered = new Set<string>();
  const hookedPools: string[] = [];
  const summedPools: string[] = [];
  const excluded = {
    UNVERIFIED_TOKEN: snapshot.unquoted,
    UNPRICED_TOKEN: 0,
    INCONSISTENT_TICKS: 0,
    INCOMPLETE_TICKS: 0,
    UNQUOTABLE: 0,
    EMPTY: 0,
  };
  for (const quote of snapshot.quotes) {
    const usd0 = usdPerBaseUnit(quote.pool.token0);
    const usd1 = usdPerBaseUnit(quote.pool.token1);
    const flag = excludingFlags.find((f) => quote.flags.includes(f));
    if (flag) excluded[flag]++;
    else if (!quote.depth || !quote.holdings) excluded.INCONSISTENT_TICKS++;
    else if (!usd0 || !usd1) excluded.UNPRICED_TOKEN++;
    else {
      const value = (amount0: bigint, amount1: bigint) =>
        addRatio(mulRatio({ num: amount0, den: 1n }, usd0), mulRatio({ num: amount1, den: 1n }, usd1));
      const volume = snapshot.volumes.get(quote.pool.address);
      const figures: Totals = {
        pools: 1,
        reserve: value(quote.holdings.amount0, quote.holdings.amount1),
        depth: value(quote.depth.token0In, quote.depth.token1In),
        // Each swap moves about the same value in as out: half the two sides' sum is the value traded.
        volume: mulRatio(value(volume?.volume0 ?? 0n, volume?.volume1 ?? 0n), { num: 1n, den: 2n }),
      };
      add(totals, figures);
      const dex = byDex.get(quote.pool.kind) ?? emptyTotals();
      add(dex, figures);
      byDex.set(quote.pool.kind, dex);
      covered.add(tokenKey(quote.pool.token0, snapshot));
      covered.add(tokenKey(quote.pool.token1, snapshot));
      summedPools.push(quote.pool.address);
      if (quote.flags.includes("HOOK_CAN_CHANGE_SWAP")) hookedPools.push(quote.pool.address);
    }
  }
  const tokens = snapshot.tokens
    .filter((t) => covered.has(t.address))
    .map((t) => ({
      symbol: t.symbol,
      address: t.address,
      priceUsd: formatRatio(snapshot.prices.get(t.address)?.usd as Ratio, priceDigits),
    }));
  return {
    totals: shape(totals),
    byDex: [...byDex.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([dex, t]) => ({ dex, ...shape(t) })),
    volumeWindow: {
      from: isoOf(snapshot.volumeWindow.from),
      to: isoOf(snapshot.volumeWindow.to),
      seconds: Number(snapshot.volumeWindow.to - snapshot.volumeWindow.from),
    },
    coverage: {
      scope: "TRACKED_POOLS",
      poolSet: "VERIFIED_CANDIDATES",
      candidates: snapshot.candidates,
      tokens,
      dexes: [...byDex.keys()].sort(),
      pools: totals.pools,
      summedPools: summedPools.sort(),
      hookedPools: hookedPools.sort(),
      excluded,
    },
  };
});

/** The flags that leave a pool out of the sums (a hooked pool is summed: its liquidity is real), first match counted. */
const excludingFlags = ["EMPTY", "UNQUOTABLE", "INCOMPLETE_TICKS", "INCONSISTENT_TICKS"] as const;

const isoOf = (seconds: bigint) => new Date(Number(seconds) * 1000).toISOString();

const nativeEth = "0x0000000000000000000000000000000000000000";

/** Native ETH is valued and covered as WETH. */
function tokenKey(address: string, snapshot: MarketSnapshot): string {
  const lower = address.toLowerCase();
  return lower === nativeEth ? (snapshot.tokens.find((t) => t.symbol === "WETH")?.address ?? lower) : lower;
}

/** USD per base unit of a token (its median price over 10^decimals), or null when it has none. */
function usdPerBaseUnitOf(snapshot: MarketSnapshot) {
  return (address: string): Ratio | null => {
    const key = tokenKey(address, snapshot);
    const token = snapshot.tokens.find((t) => t.address === key);
    const usd = token ? snapshot.prices.get(token.address)?.usd : null;
    return token && usd ? { num: usd.num, den: usd.den * 10n ** BigInt(token.decimals) } : null;
  };
}

function add(into: Totals, figures: Totals): void {
  into.pools += figures.pools;
  into.reserve = addRatio(into.reserve, figures.reserve);
  into.depth = addRatio(into.depth, figures.depth);
  into.volume = addRatio(into.volume, figures.volume);
}

function shape(t: Totals) {
  return {
    pools: t.pools,
    reserveUsd: formatRatio(t.reserve, usdDigits),
    depthUsd: formatRatio(t.depth, usdDigits),
    volumeUsd: formatRatio(t.volume, usdDigits),
  };
}
