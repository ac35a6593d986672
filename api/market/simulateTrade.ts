import {
  type Address,
  decodeErrorResult,
  decodeFunctionResult,
  encodeFunctionData,
  getAddress,
  type Hex,
  keccak256,
  numberToHex,
  pad,
  stringToHex,
} from "viem";
import type { DexDeployments } from "../../base/poolCandidates";
import { createPinnedReader } from "../chain/createPinnedReader";
import type { ObservationBlock } from "../chain/ObservationBlock";
import { pinObservationBlock } from "../chain/pinObservationBlock";
import type { RpcProvider } from "../chain/providers";
import { failure, type Result, success } from "../errors";
import { mappingKey, type QuoteAsset, readSimulationPools } from "./readSimulationPools";
import type {
  DecodedRevert,
  SimulationPool,
  TradeFigure,
  TradeLimit,
  TradeSimulationRequest,
  TradeSimulationResponse,
} from "./TradeSimulationResponse";
import { tradeSimulationLimitations } from "./tradeSimulationLimitations";
import { tradeSimulatorAbi, tradeSimulatorRuntime } from "./tradeSimulatorCode";

export type SimulateTradeParameters = {
  providers: readonly RpcProvider[];
  chainId: number;
  /** Where the chain's DEXes derive their pools (base/baseDexDeployments.ts, or the devnet manifest's `dexes`). */
  dexes: DexDeployments;
  /** USDC then WETH. */
  quotes: readonly [QuoteAsset, QuoteAsset];
  minPoolDepthUsd: number;
  /** SIMULATION_CALL_GAS and SIMULATION_STEP_GAS. */
  gas: { callGas: number; stepGas: number };
};

/** The buy sizes, in USD of the quote asset. */
export const simulationAmountsUsd = { small: 100, large: 10_000 } as const;
/** At most this many probes find the largest amount that succeeded (whole tokens, bisected). */
export const ladderBound = 24;

const syntheticAddress = (label: string): Address => getAddress(`0x${keccak256(stringToHex(label)).slice(-40)}`);
/** The synthetic trader and the peer it transfers to: new addresses with the helper's code placed by override. */
export const simulationTrader = syntheticAddress("trade simulation trader");
export const simulationPeer = syntheticAddress("trade simulation peer");

/**
 * Simulates buying and selling `address` at one pinned block: finds its Uniswap V2, V3 and V4, Aerodrome
 * and Slipstream pools against USDC and WETH by address derivation (one batch), and trades through the deepest in one eth_call
 * whose state overrides place the helper contract at a synthetic trader and peer and fund the trader's
 * quote asset through the balance slot the batch found. Two round trips after the pin; `conclusion` is null.
 */
export async function simulateTrade(
  deps: SimulateTradeParameters,
  request: TradeSimulationRequest,
): Promise<Result<TradeSimulationResponse>> {
  const block = await pinObservationBlock({ providers: deps.providers, chainId: deps.chainId });
  if (block.status !== "PINNED" || block.blockNumber === null) {
    return failure("DATA_SOURCE_UNAVAILABLE", "no Base RPC provider answered: no observation block could be pinned", {
      observationBlock: block,
    });
  }
  const reader = createPinnedReader(block, deps.providers);
  const found = await readSimulationPools(reader, {
    dexes: deps.dexes,
    token: request.address,
    quotes: deps.quotes,
    holder: simulationTrader,
  });
  const pools = found.pools.map((p) => ({ ...p, belowDepthFloor: p.depthUsd < deps.minPoolDepthUsd }));
  const answer = ({
    verified,
    ...part
  }: Partial<TradeSimulationResponse> & { reason: string; verified: boolean }): TradeSimulationResponse => ({
    status: "SUCCESS",
    operation: "TOKEN_TRADE_SIMULATION",
    token: { address: request.address, ...found.token },
    pool: null,
    poolsConsidered: pools,
    amounts: null,
    figures: [],
    tradeLimits: [],
    gas: { callGasLimit: deps.gas.callGas, stepGasLimit: deps.gas.stepGas, ladderBound },
    funding: null,
    ...part,
    evidenceGrade: block.evidenceGrade && verified,
    evidenceStatus: block.evidenceGrade && verified ? "VERIFIED" : "UNVERIFIED",
    reason: block.evidenceGrade ? part.reason : `UNVERIFIED_OBSERVATION: ${block.reason}`,
    effectiveTrust: block.trustLevel,
    observationBlock: block,
    rpcObservation: reader.observation(),
    notASafetyGuarantee: true,
    limitations: [...tradeSimulationLimitations],
    conclusion: null,
  });
  if (found.readFailed) return success(answer({ reason: "UNVERIFIED_OBSERVATION: READ_FAILED", verified: false }));
  if (!found.token.isContract) return success(answer({ reason: "NOT_A_CONTRACT", verified: false }));
  const pool = pools.find((p) => p.quote.symbol === "USDC" || found.wethPriceUsdc !== null);
  if (!pool) {
    return failure(
      "DATA_SOURCE_UNAVAILABLE",
      `no pool: no Uniswap V2, V3 or V4, Aerodrome or Slipstream pool of ${request.address} against USDC or WETH at block ${block.blockNumber}`,
      { observationBlock: block },
    );
  }
  if (found.token.decimals === null || found.token.decimals > 36) {
    const why = found.token.decimals === null ? "decimals() did not answer" : `decimals() answered ${found.token.decimals}, above 36`;
    return success(answer({ reason: `NOT_AN_ERC20: ${why}`, verified: false }));
  }
  const balanceSlot = found.balanceSlots[pool.quote.symbol];
  if (balanceSlot === undefined) {
    return failure("DATA_SOURCE_UNAVAILABLE", `no balance slot of ${pool.quote.symbol} found to fund the synthetic trader`, {
      observationBlock: block,
    });
  }
  const toQuote = (usd: number) =>
    pool.quote.symbol === "USDC"
      ? BigInt(usd) * 10n ** BigInt(pool.quote.decimals)
      : (BigInt(usd) * 10n ** 6n * 10n ** 18n) / (found.wethPriceUsdc ?? 1n);
  const smallIn = toQuote(simulationAmountsUsd.small);
  const largeIn = toQuote(simulationAmountsUsd.large);
  const unit = 10n ** BigInt(found.token.decimals);
  const plan = simulationPlan({ pool, token: request.address, smallIn, largeIn, unit, stepGas: deps.gas.stepGas });
  const [call] = await reader.read([
    {
      kind: "call",
      to: simulationTrader,
      data: encodeFunctionData({ abi: tradeSimulatorAbi, functionName: "simulate", args: [plan] }),
      gas: numberToHex(deps.gas.callGas),
      stateOverride: {
        [simulationTrader]: { code: tradeSimulatorRuntime },
        [simulationPeer]: { code: tradeSimulatorRuntime },
        // Four large buys' worth: the small and the large buy, and the ladder's probes, each paying at most the large
        // amount (a V2-style probe pays it; a concentrated one what its exact output costs, below it up to the large buy's output).
        [pool.quote.address]: { stateDiff: { [mappingKey(simulationTrader, balanceSlot)]: pad(numberToHex(largeIn * 4n)) } },
      },
    },
  ]);
  const common = {
    pool,
    amounts: { smallUsd: simulationAmountsUsd.small, largeUsd: simulationAmountsUsd.large, smallIn: `${smallIn}`, largeIn: `${largeIn}` },
    funding: { quoteToken: pool.quote.address, balanceSlot },
  };
  if (!call?.ok) {
    const reason = call?.reverted ? `SIMULATION_REVERTED: ${call.error.slice(0, 200)}` : "UNVERIFIED_OBSERVATION: READ_FAILED";
    return success(answer({ ...common, reason, verified: false }));
  }
  const report = decodeReport(call.value);
  // A provider that ignored the state overrides answers what our helper would never return.
  if (report === null) return success(answer({ ...common, reason: "UNVERIFIED_OBSERVATION: MALFORMED_RESULT", verified: false }));
  return success(
    answer({
      ...common,
      figures: toFigures(report, pool.address, block),
      tradeLimits: toLimits(report, unit),
      reason: "PINNED_TRADE_SIMULATION",
      verified: true,
    }),
  );
}

/** TradeSimulator's Plan.kind of each DEX: how it quotes and swaps. */
const simulatorKinds = {
  "uniswap-v2": 0,
  "aerodrome-volatile": 1,
  "aerodrome-stable": 1,
  "uniswap-v3": 2,
  slipstream: 2,
  "uniswap-v4": 3,
} as const satisfies Record<SimulationPool["dex"], number>;

/** TradeSimulator.simulate's plan: what to trade through, the amounts, the ladder's step and bound, each step's gas. */
export function simulationPlan(p: {
  pool: Pick<SimulationPool, "address" | "dex" | "quote" | "uniswapV4">;
  token: Address;
  smallIn: bigint;
  largeIn: bigint;
  unit: bigint;
  stepGas: number;
}) {
  return {
    pool: p.pool.address,
    kind: simulatorKinds[p.pool.dex],
    fee: p.pool.uniswapV4?.fee ?? 0,
    tickSpacing: p.pool.uniswapV4?.tickSpacing ?? 0,
    token: p.token,
    quote: p.pool.quote.address,
    peer: simulationPeer,
    smallIn: p.smallIn,
    largeIn: p.largeIn,
    unit: p.unit,
    ladderSteps: BigInt(ladderBound),
    stepGas: BigInt(p.stepGas),
  };
}

type Report = ReturnType<typeof decodeFunctionResult<typeof tradeSimulatorAbi, "simulate">>;
type Step = Report["buySmall"];

function toFigures(report: Report, pool: Address, block: ObservationBlock): TradeFigure[] {
  const steps = [
    ["BUY_SMALL", report.buySmall],
    ["TRANSFER", report.transfer],
    ["SELL_SMALL", report.sellSmall],
    ["BUY_LARGE", report.buyLarge],
    ["SELL_LARGE", report.sellLarge],
  ] as const;
  return steps.map(([step, s]) => toFigure(step, s, pool, block.blockNumber ?? 0));
}

function toFigure(step: TradeFigure["step"], s: Step, pool: Address, blockNumber: number): TradeFigure {
  const selling = step === "SELL_SMALL" || step === "SELL_LARGE";
  const expected = step === "TRANSFER" ? s.sent : s.quoted;
  return {
    step,
    outcome: !s.attempted ? "NOT_ATTEMPTED" : s.ok ? "SUCCEEDED" : "REVERTED",
    pool,
    blockNumber,
    sent: `${s.sent}`,
    arrived: `${s.arrived}`,
    quoted: `${s.quoted}`,
    received: `${s.received}`,
    costBps: s.ok ? shortfallBps(expected, s.received) : null,
    tokenShortfallBps: s.ok && selling ? shortfallBps(s.sent, s.arrived) : null,
    gasUsed: Number(s.gasUsed),
    revert: s.attempted && !s.ok ? decodeRevert(s.revertData) : null,
  };
}

function toLimits(report: Report, unit: bigint): TradeLimit[] {
  const limits = [
    ["BUY", report.buyLimit],
    ["SELL", report.sellLimit],
  ] as const;
  return limits
    .filter(([, l]) => l.probed)
    .map(([side, l]) => ({
      side,
      largestSucceeded: `${l.largestOk}`,
      smallestFailed: `${l.smallestFailed}`,
      probes: Number(l.steps),
      ladderBound,
      resolution: `${unit}`,
    }));
}

/** (expected − actual) / expected in basis points, rounded half away from zero; null when nothing was expected. */
export function shortfallBps(expected: bigint, actual: bigint): number | null {
  if (expected === 0n) return null;
  const diff = expected - actual;
  const magnitude = ((diff < 0n ? -diff : diff) * 20_000n) / expected;
  const rounded = Number((magnitude + 1n) / 2n);
  return diff < 0n ? -rounded : rounded;
}

/** Error(string) and Panic(uint256) decoded; any other revert named by its selector. */
export function decodeRevert(data: Hex): DecodedRevert {
  const base = { data: data.slice(0, 2 + 2 * 256), message: null, panicCode: null, selector: null };
  if (data === "0x") return { ...base, kind: "EMPTY" };
  try {
    const decoded = decodeErrorResult({ abi: [], data });
    if (decoded.errorName === "Error") return { ...base, kind: "ERROR_STRING", message: String(decoded.args?.[0]).slice(0, 200) };
    if (decoded.errorName === "Panic") return { ...base, kind: "PANIC", panicCode: Number(decoded.args?.[0]) };
  } catch {
    // Not a standard error: named by its selector below.
  }
  return { ...base, kind: "CUSTOM_ERROR", selector: data.slice(0, 10) };
}

/** The simulator's report, or null when the answer is not one (short data, `0x`). */
function decodeReport(data: Hex) {
  try {
    return decodeFunctionResult({ abi: tradeSimulatorAbi, functionName: "simulate", data });
  } catch {
    return null;
  }
}
