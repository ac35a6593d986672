import { toFunctionSelector } from "viem";
import type { RpcProvider } from "../../api/chain/providers";
import { assembleSimulateTrade } from "../../api/market/assembleSimulateTrade";
import type { SimulateTradeParameters } from "../../api/market/simulateTrade";
import type { TradeFigure, TradeSimulationResponse } from "../../api/market/TradeSimulationResponse";
import type { Manifest, SimulationFixture } from "../../devnet/manifest";

/** The trade simulation's dependencies over a devnet (or a fork of it) read through `providers`, with the configuration's defaults. */
export function simulationParameters(
  manifest: Pick<Manifest, "chainId" | "dexes">,
  providers: readonly RpcProvider[],
): SimulateTradeParameters {
  return assembleSimulateTrade({
    providers,
    chainId: manifest.chainId,
    dexes: manifest.dexes,
    market: { minPoolDepthUsd: 50_000, simulation: { callGas: 30_000_000, stepGas: 2_000_000 } },
  });
}

/** What each step's cost must be, in basis points, from a trading fixture's parameters. */
export function expectedCosts(f: SimulationFixture): { buy: number; transfer: number; sellShortfall: number } {
  const { buyFeeBps, sellFeeBps, transferFeeBps, rebaseBps } = f.traps;
  return { buy: transferFeeBps + buyFeeBps - rebaseBps, transfer: transferFeeBps - rebaseBps, sellShortfall: transferFeeBps + sellFeeBps };
}

const isConcentrated = (p: SimulationFixture["pools"][number]) =>
  p.kind === "uniswap-v3" || p.kind === "slipstream" || p.kind === "uniswap-v4";

/** V4's CurrencyNotSettled(), the PoolManager's refusal of an unlock that leaves a delta open. */
export const currencyNotSettledSelector = toFunctionSelector("CurrencyNotSettled()");

/** A sell arriving short, as the fixture's pool refuses it: V3-style pools' IIA, V4's CurrencyNotSettled. */
function soldShortRevert(f: SimulationFixture, sell: TradeFigure): boolean {
  if (f.pools.some((p) => p.kind === "uniswap-v4")) return sell.revert?.selector === currencyNotSettledSelector;
  return sell.revert?.message === "IIA";
}

/**
 * A fixture traded through a concentrated pool (its deepest) whose sells arrive short: the pool's balance
 * check (Uniswap V3's IIA) reverts them.
 */
export function keepsPartOfSellsToConcentratedPool(f: SimulationFixture): boolean {
  return f.pools.some(isConcentrated) && f.traps.sellFeeBps + f.traps.transferFeeBps > 0;
}

/** The figure of one step of an answer. */
export function figureOf(answer: TradeSimulationResponse, step: TradeFigure["step"]): TradeFigure {
  const found = answer.figures.find((f) => f.step === step);
  if (!found) throw new Error(`no ${step} figure`);
  return found;
}

/**
 * Whether an answer's figures equal the fixture's parameters exactly: costs to the basis point where every
 * step trades, the allowlist's sells reverted with its message, the maximum transaction to the token unit.
 */
export function figuresEqualParameters(f: SimulationFixture, answer: TradeSimulationResponse): boolean {
  const outcomes = answer.figures.map((x) => x.outcome).join(",");
  if (keepsPartOfSellsToConcentratedPool(f)) {
    const costs = expectedCosts(f);
    return (
      outcomes === "SUCCEEDED,SUCCEEDED,REVERTED,SUCCEEDED,REVERTED" &&
      answer.pool?.address === f.pools.find(isConcentrated)?.address &&
      figureOf(answer, "BUY_SMALL").costBps === costs.buy &&
      soldShortRevert(f, figureOf(answer, "SELL_SMALL")) &&
      soldShortRevert(f, figureOf(answer, "SELL_LARGE")) &&
      answer.tradeLimits.length === 0
    );
  }
  if (f.traps.sellsRestricted) {
    return (
      outcomes === "SUCCEEDED,SUCCEEDED,REVERTED,SUCCEEDED,REVERTED" &&
      figureOf(answer, "SELL_SMALL").revert?.message === "sells restricted" &&
      answer.tradeLimits.length === 0
    );
  }
  if (f.traps.maxTxAmount !== "0") {
    const [limit] = answer.tradeLimits;
    return (
      outcomes === "SUCCEEDED,SUCCEEDED,SUCCEEDED,REVERTED,NOT_ATTEMPTED" &&
      limit?.side === "BUY" &&
      limit.largestSucceeded === f.traps.maxTxAmount &&
      BigInt(limit.smallestFailed) - BigInt(limit.largestSucceeded) === BigInt(limit.resolution)
    );
  }
  const costs = expectedCosts(f);
  const cost = (step: TradeFigure["step"]) => figureOf(answer, step).costBps;
  const shortfall = (step: TradeFigure["step"]) => figureOf(answer, step).tokenShortfallBps;
  return (
    outcomes === "SUCCEEDED,SUCCEEDED,SUCCEEDED,SUCCEEDED,SUCCEEDED" &&
    cost("BUY_SMALL") === costs.buy &&
    cost("BUY_LARGE") === costs.buy &&
    cost("TRANSFER") === costs.transfer &&
    cost("SELL_SMALL") === costs.sellShortfall &&
    shortfall("SELL_SMALL") === costs.sellShortfall &&
    shortfall("SELL_LARGE") === costs.sellShortfall &&
    answer.tradeLimits.length === 0
  );
}
