import { z } from "zod";
import type { AppDeps } from "../app";
import { AuditResponse } from "../capability/AuditResponse";
import { auditContract } from "../capability/auditContract";
import { type Result, success } from "../errors";
import { StatusReport } from "../health/StatusReport";
import { AddressParam, SymbolParam } from "../http/params";
import { DexMetricsResponse } from "../market/DexMetricsResponse";
import { GasFees } from "../market/GasFees";
import { listWhaleSignals } from "../market/listWhaleSignals";
import { marketSymbols } from "../market/marketSymbols";
import { observeGasFees } from "../market/observeGasFees";
import { quoteTokenPrice } from "../market/quoteTokenPrice";
import { summarizeDexMetrics } from "../market/summarizeDexMetrics";
import { TokenPriceResponse } from "../market/TokenPriceResponse";
import { WhaleSignalsResponse } from "../market/WhaleSignalsResponse";
import type { RouteDefinition } from "../routes/defineRoute";
import { routes } from "../routes/routeTable";

/**
 * One MCP tool: the REST route whose access, credits and x402 price it shares, its zod input and output
 * schemas, the service it calls (the route's own), and a short text rendering of the answer.
 */
export type McpTool<I extends z.ZodObject = z.ZodObject, O extends z.ZodType = z.ZodType> = {
  name: string;
  title: string;
  description: string;
  route: RouteDefinition;
  input: I;
  output: O;
  /** The REST path of the same call (an x402 challenge names it as the resource, as the REST route's does). */
  path(input: z.output<I>): string;
  serve(input: z.output<I>): Promise<Result<z.output<O>>>;
  summarize(value: z.output<O>): string;
};

/** What the tools call: the same services, with the same dependencies, as the REST routes. */
export type McpToolDeps = Pick<AppDeps, "capability" | "market"> & { checkStatus: () => Promise<StatusReport> };

/** A route's path with its `{name}` parameters filled in. */
const pathOf = (route: RouteDefinition, params: Record<string, string>) =>
  route.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? ""));
const tool = <I extends z.ZodObject, O extends z.ZodType>(t: McpTool<I, O>) => t as unknown as McpTool;
const noInput = z.object({});
const paid = (route: RouteDefinition) =>
  `Costs ${route.credits} credit with an API key (x-api-key or Authorization: Bearer header), or ${route.x402PriceUsd} USDC on Base per call with an x402 v2 payment (PAYMENT-SIGNATURE header); without either it returns the x402 payment requirements.`;

/** The six tools of the spec, each over the service its REST route calls. */
export function mcpTools(deps: McpToolDeps): McpTool[] {
  const { readMarket } = deps.market.indexed;
  return [
    tool({
      name: "svc_audit_contract",
      title: "Audit a Base contract's capabilities",
      description: `Observes a Base contract's bytecode at a pinned block: capability observations (mint, pause, upgrade, blacklist, ...), proxy resolution to its implementation or Diamond facets, and a 0-100 coverage index with its deductions. Not a safety verdict: UNVERIFIED with a null score when evidence-grade data cannot be read. Same answer as GET ${routes.audit.path}. ${paid(routes.audit)}`,
      route: routes.audit,
      input: z.object({ address: AddressParam.describe("The contract's address: 0x + 40 hex digits (checksummed or lowercase)") }),
      output: AuditResponse,
      path: ({ address }) => pathOf(routes.audit, { address }),
      serve: ({ address }) => auditContract(deps.capability, address),
      summarize: (a) =>
        `${a.address}: ${a.capabilityRating}, coverage index ${a.capabilityScore ?? "null"}/100, ${a.detectedCapabilities.length} capability types detected (${a.detectedCapabilities.join(", ") || "none"}) at block ${a.observationBlock.blockNumber}; not a safety guarantee.`,
    }),
    tool({
      name: "svc_get_gas_metrics",
      title: "Base gas fees",
      description: `Current Base gas fees at a pinned block: eth_gasPrice in wei and gwei, the next block's base fee, priority-fee percentiles and the L1 data-fee parameters, with the RPC provider and trust level that observed them. No parameters. Same answer as GET ${routes.gasFees.path}. ${paid(routes.gasFees)}`,
      route: routes.gasFees,
      input: noInput,
      output: GasFees,
      path: () => routes.gasFees.path,
      serve: () => observeGasFees(deps.market.gasFees),
      summarize: (g) =>
        `Base gas price ${g.gasPrice.gwei} gwei (${g.gasPrice.wei} wei) at block ${g.provenance.observationBlock.blockNumber}.`,
    }),
    tool({
      name: "svc_get_token_price",
      title: "Token USD price on Base DEXes",
      description: `USD price of one tracked token: the median spot price of its up-to-five deepest indexed Base pools, with each pool and the spread. Symbols: ${marketSymbols.join(", ")} (case-insensitive; another symbol is an UNKNOWN_SYMBOL error listing them). Same answer as GET ${routes.tokenPrice.path}. ${paid(routes.tokenPrice)}`,
      route: routes.tokenPrice,
      input: z.object({ symbol: SymbolParam.describe(`A tracked token symbol: ${marketSymbols.join(", ")}`) }),
      output: TokenPriceResponse,
      path: ({ symbol }) => pathOf(routes.tokenPrice, { symbol }),
      serve: ({ symbol }) => quoteTokenPrice(readMarket, symbol),
      summarize: (p) =>
        `${p.symbol} = ${p.priceUsd} USD (${p.basis}, spread ${p.spread.bps} bps) at block ${p.provenance.observationBlock.blockNumber}.`,
    }),
    tool({
      name: "svc_get_dex_liquidity",
      title: "Base DEX liquidity",
      description: `Aggregate reserves in USD, ±2% depth and 24 h volume over the tracked Base pools, in total and by DEX, with the exact coverage (pools counted and left out). No parameters. Same answer as GET ${routes.dexMetrics.path}. ${paid(routes.dexMetrics)}`,
      route: routes.dexMetrics,
      input: noInput,
      output: DexMetricsResponse,
      path: () => routes.dexMetrics.path,
      serve: () => summarizeDexMetrics(readMarket),
      summarize: (d) =>
        `Tracked Base pools: ${JSON.stringify(d.totals)} over ${d.byDex.length} DEXes at block ${d.provenance.observationBlock.blockNumber}.`,
    }),
    tool({
      name: "svc_get_whale_signals",
      title: "Whale transfers on Base",
      description: `Up to 50 recent high-value ERC-20 transfers of the tracked tokens (newest first): transaction hash, token, sender, receiver, amount and USD valuation with its provenance, in a bounded recent block window. No parameters. Same answer as GET ${routes.whaleSignals.path}. ${paid(routes.whaleSignals)}`,
      route: routes.whaleSignals,
      input: noInput,
      output: WhaleSignalsResponse,
      path: () => routes.whaleSignals.path,
      serve: () => listWhaleSignals(deps.market.indexed),
      summarize: (w) => `${w.signals.length} whale transfers in blocks ${w.window.fromBlock}-${w.window.toBlock} (at most ${w.limit}).`,
    }),
    tool({
      name: "svc_get_service_status",
      title: "Service status",
      description: `This service's operational status (OPERATIONAL, DEGRADED or UNAVAILABLE): RPC quorum and trust level, index lag, persistence availability and payment settlement. Free, no credential, no parameters. Same answer as GET ${routes.status.path}.`,
      route: routes.status,
      input: noInput,
      output: StatusReport,
      path: () => routes.status.path,
      serve: async () => success(await deps.checkStatus()),
      summarize: (s) => `Status ${s.status}: RPC ${s.rpc.trustLevel}, index head ${s.index.headBlock ?? "unknown"}.`,
    }),
  ];
}
