import { z } from "zod";
import { answerObservation } from "../../http/answerObservation";
import { AddressParam } from "../../http/params";
import { ladderBound, simulateTrade, simulationAmountsUsd } from "../../market/simulateTrade";
import { TradeSimulationResponse } from "../../market/TradeSimulationResponse";
import { routeTool } from "../../mcp/McpTool";
import { defineRoute } from "../defineRoute";
import { addressPath, meteredErrors, meteredHeaders, observationErrors } from "../routeErrors";
import { payableRoute } from "../servedRoute";

const { small, large } = simulationAmountsUsd;

/** What the simulation did, in one line: the pool, each step's outcome and cost, the limits found. */
function summarize(s: TradeSimulationResponse): string {
  const at = `at block ${s.observationBlock.blockNumber}`;
  if (s.pool === null || s.figures.length === 0) return `${s.token.address}: ${s.evidenceStatus} (${s.reason}) ${at}; no trade observed.`;
  const depth = `depth ${Math.round(s.pool.depthUsd)} USD${s.pool.belowDepthFloor ? ", below the depth floor" : ""}`;
  const steps = s.figures.map((f) => `${f.step} ${f.outcome}${f.costBps === null ? "" : ` ${f.costBps} bps`}`).join(", ");
  const limits = s.tradeLimits.map((l) => `; largest ${l.side} that succeeded ${l.largestSucceeded} base units`).join("");
  return `${s.token.symbol ?? s.token.address} through ${s.pool.dex} pool ${s.pool.address} (${depth}) ${at}: ${steps}${limits}. An observation, not a verdict.`;
}

/** A buy and a sell of any ERC-20 on Base, simulated at a pinned block; also the MCP tool `svc_simulate_token_trade`. */
export const tokenSimulation = payableRoute(
  defineRoute({
    group: "Market",
    method: "get",
    path: "/v1/token/simulation/{address}",
    summary: "What a buy, a transfer and a sell of a token actually do, observed in one eth_call at a pinned block",
    description: `Any ERC-20 on Base, indexed or not: its Uniswap V2, V3 and V4 (hookless), Aerodrome and Slipstream pools against USDC and WETH are found by address derivation at the pinned block, and the deepest (named, with its depth; one below MARKET_MIN_POOL_DEPTH_USD is still used and flagged) trades a ${small} USD and a ${large} USD buy, a transfer of the tokens bought to a second account and a sell of them, in one eth_call with state overrides (synthetic trader and helper contract, nothing sent). Each figure carries the pool, the block, the amounts, the gas used and its cost in basis points against the pool's own quote; a revert is decoded where it is a standard error; where the larger trade reverts and the small one succeeds, a ladder of at most ${ladderBound} probes finds the largest amount that succeeded. Gas is capped per call (SIMULATION_CALL_GAS) and per step (SIMULATION_STEP_GAS). An address without code, an unreadable pool or a token without decimals is 200 UNVERIFIED with its reason; a token with no pool is 503 DATA_SOURCE_UNAVAILABLE. Never a verdict: conclusion is null.`,
    access: "apiKeyOrX402",
    counted: true,
    // A batch of pool reads and one eth_call of up to SIMULATION_CALL_GAS: twice a price read's work, and the going
    // rate of a simulated buy and sell sold per call by other paid tools.
    credits: 2,
    x402PriceUsd: 0.01,
    request: addressPath,
    responses: { 200: { description: "TradeSimulationResponse", schema: TradeSimulationResponse, headers: meteredHeaders } },
    errors: [...meteredErrors, "PAYMENT_REQUIRED", "INVALID_ADDRESS", ...observationErrors],
  }),
  {
    handler:
      ({ market }) =>
      async (c) =>
        answerObservation(c, await simulateTrade(market.simulateTrade, c.req.valid("param"))),
    capture: "trade-simulation",
    tool: routeTool({
      name: "svc_simulate_token_trade",
      title: "Simulate buying and selling a Base token",
      description: `Simulates, at a pinned block and without sending anything, a ${small} USD and a ${large} USD buy of any ERC-20 on Base through its deepest Uniswap V2, V3 or V4, Aerodrome or Slipstream pool against USDC or WETH, a transfer of the tokens bought, and a sell of them: tokens and quote asset received against the pool's own quote in basis points (buy and sell taxes, transfer fees), reverts decoded (honeypot-style sell restrictions, pauses), and the largest amount that succeeded where the larger trade reverts (maximum transaction limits). An observation, never a verdict: UNVERIFIED with its reason when evidence-grade data cannot be read; a token with no pool is DATA_SOURCE_UNAVAILABLE.`,
      input: z.object({ address: AddressParam.describe("The token's address: 0x + 40 hex digits (checksummed or lowercase)") }),
      output: TradeSimulationResponse,
      serve:
        ({ market }) =>
        ({ address }) =>
          simulateTrade(market.simulateTrade, { address }),
      summarize,
    }),
  },
);
