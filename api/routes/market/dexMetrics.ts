import { z } from "zod";
import { answerObservation } from "../../http/answerObservation";
import { DexMetricsResponse } from "../../market/DexMetricsResponse";
import { summarizeDexMetrics } from "../../market/summarizeDexMetrics";
import { routeTool } from "../../mcp/McpTool";
import { defineRoute } from "../defineRoute";
import { meteredErrors, meteredHeaders, observationErrors } from "../routeErrors";
import { payableRoute } from "../servedRoute";

/** Reserves, depth and volume over the tracked pools; also the MCP tool `svc_get_dex_liquidity`. */
export const dexMetrics = payableRoute(
  defineRoute({
    group: "Market",
    method: "get",
    path: "/v1/dex/metrics",
    summary: "Reserves, ±2% depth and 24 h volume summed over the tracked pools, with the exact coverage",
    access: "apiKeyOrX402",
    counted: true,
    credits: 1,
    x402PriceUsd: 0.01,
    responses: { 200: { description: "DexMetricsResponse", schema: DexMetricsResponse, headers: meteredHeaders } },
    errors: [...meteredErrors, "PAYMENT_REQUIRED", ...observationErrors],
  }),
  {
    handler:
      ({ market }) =>
      async (c) =>
        answerObservation(c, await summarizeDexMetrics(market.readMarket)),
    capture: "dex-metrics",
    tool: routeTool({
      name: "svc_get_dex_liquidity",
      title: "Base DEX liquidity",
      description:
        "Aggregate reserves in USD, ±2% depth and 24 h volume over the tracked Base pools, in total and by DEX, with the exact coverage (pools counted and left out). No parameters.",
      input: z.object({}),
      output: DexMetricsResponse,
      serve:
        ({ market }) =>
        () =>
          summarizeDexMetrics(market.readMarket),
      summarize: (d) =>
        `Tracked Base pools: ${JSON.stringify(d.totals)} over ${d.byDex.length} DEXes at block ${d.provenance.observationBlock.blockNumber}.`,
    }),
  },
);
