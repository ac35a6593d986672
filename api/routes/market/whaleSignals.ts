import { z } from "zod";
import { answerObservation } from "../../http/answerObservation";
import { listWhaleSignals } from "../../market/listWhaleSignals";
import { WhaleSignalsResponse } from "../../market/WhaleSignalsResponse";
import { routeTool } from "../../mcp/McpTool";
import { defineRoute } from "../defineRoute";
import { meteredErrors, meteredHeaders, observationErrors } from "../routeErrors";
import { payableRoute } from "../servedRoute";

/** The newest large transfers of the tracked tokens; also the MCP tool `svc_get_whale_signals`. */
export const whaleSignals = payableRoute(
  defineRoute({
    group: "Market",
    method: "get",
    path: "/v1/whales/signals",
    summary: "The newest (at most 50) tracked-token transfers at or above their threshold, in a bounded recent block window",
    access: "apiKeyOrX402",
    counted: true,
    credits: 1,
    x402PriceUsd: 0.02,
    responses: { 200: { description: "WhaleSignalsResponse", schema: WhaleSignalsResponse, headers: meteredHeaders } },
    errors: [...meteredErrors, "PAYMENT_REQUIRED", ...observationErrors],
  }),
  {
    handler:
      ({ market }) =>
      async (c) =>
        answerObservation(c, await listWhaleSignals(market.whaleSignals)),
    capture: "whale-signals",
    tool: routeTool({
      name: "svc_get_whale_signals",
      title: "Whale transfers on Base",
      description:
        "Up to 50 recent high-value ERC-20 transfers of the tracked tokens (newest first): transaction hash, token, sender, receiver, amount and USD valuation with its provenance, in a bounded recent block window. No parameters.",
      input: z.object({}),
      output: WhaleSignalsResponse,
      serve:
        ({ market }) =>
        () =>
          listWhaleSignals(market.whaleSignals),
      summarize: (w) => `${w.signals.length} whale transfers in blocks ${w.window.fromBlock}-${w.window.toBlock} (at most ${w.limit}).`,
    }),
  },
);
