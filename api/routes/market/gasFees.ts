import { z } from "zod";
import { answerObservation } from "../../http/answerObservation";
import { GasFees } from "../../market/GasFees";
import { feeHistoryBlocks, observeGasFees } from "../../market/observeGasFees";
import { routeTool } from "../../mcp/McpTool";
import { defineRoute } from "../defineRoute";
import { meteredErrors, meteredHeaders, observationErrors } from "../routeErrors";
import { payableRoute } from "../servedRoute";

/** Base gas fees read live at a pinned block; also the MCP tool `svc_get_gas_metrics`. */
export const gasFees = payableRoute(
  defineRoute({
    group: "Market",
    method: "get",
    path: "/v1/gas/fees",
    summary:
      "Base gas fees at a pinned block: eth_gasPrice, the next block's base fee, priority-fee percentiles and the L1 data-fee parameters",
    description: `Every figure is read at one block pinned at evidence grade (its provider and trust level in the headers and in provenance): priority-fee percentiles come from eth_feeHistory over the ${feeHistoryBlocks} blocks ending there, the L1 parameters from the GasPriceOracle predeploy. Cached for at most one block. The route takes no query parameters and ignores unknown ones (credential-shaped ones are 401).`,
    access: "apiKeyOrX402",
    counted: true,
    credits: 1,
    x402PriceUsd: 0.005,
    responses: { 200: { description: "GasFees", schema: GasFees, headers: meteredHeaders } },
    errors: [...meteredErrors, "PAYMENT_REQUIRED", ...observationErrors],
  }),
  {
    handler:
      ({ market }) =>
      async (c) =>
        answerObservation(c, await observeGasFees(market.gasFees)),
    capture: "gas-fees",
    tool: routeTool({
      name: "svc_get_gas_metrics",
      title: "Base gas fees",
      description:
        "Current Base gas fees at a pinned block: eth_gasPrice in wei and gwei, the next block's base fee, priority-fee percentiles and the L1 data-fee parameters, with the RPC provider and trust level that observed them. No parameters.",
      input: z.object({}),
      output: GasFees,
      serve:
        ({ market }) =>
        () =>
          observeGasFees(market.gasFees),
      summarize: (g) =>
        `Base gas price ${g.gasPrice.gwei} gwei (${g.gasPrice.wei} wei) at block ${g.provenance.observationBlock.blockNumber}.`,
    }),
  },
);
