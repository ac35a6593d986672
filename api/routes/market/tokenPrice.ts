import { z } from "zod";
import { answerObservation } from "../../http/answerObservation";
import { documentedEnum, SymbolParam } from "../../http/params";
import { marketSymbols } from "../../market/marketSymbols";
import { quoteTokenPrice } from "../../market/quoteTokenPrice";
import { TokenPriceResponse } from "../../market/TokenPriceResponse";
import { routeTool } from "../../mcp/McpTool";
import { defineRoute } from "../defineRoute";
import { meteredErrors, meteredHeaders, observationErrors } from "../routeErrors";
import { payableRoute } from "../servedRoute";

/** A tracked token's USD price from our index; also the MCP tool `svc_get_token_price`. */
export const tokenPrice = payableRoute(
  defineRoute({
    group: "Market",
    method: "get",
    path: "/v1/token/price/{symbol}",
    summary: "USD price of a tracked token: the median of its up-to-five deepest indexed pools",
    description: `Symbols: ${marketSymbols.join(", ")}, matched case-insensitively (the answer spells it canonically). An untracked symbol is 404 UNKNOWN_SYMBOL with the supported list.`,
    access: "apiKeyOrX402",
    counted: true,
    credits: 1,
    x402PriceUsd: 0.005,
    request: {
      params: z.object({
        symbol: documentedEnum(SymbolParam, marketSymbols).meta({ description: "A tracked symbol, matched case-insensitively" }),
      }),
    },
    responses: { 200: { description: "TokenPriceResponse", schema: TokenPriceResponse, headers: meteredHeaders } },
    errors: [...meteredErrors, "PAYMENT_REQUIRED", "INVALID_PARAMETER", "UNKNOWN_SYMBOL", ...observationErrors],
  }),
  {
    // One answer object per reading of the index, shared by every request of that reading.
    handler:
      ({ market }) =>
      async (c) =>
        answerObservation(c, await quoteTokenPrice(market.readMarket, c.req.valid("param").symbol), { shared: true }),
    capture: "token-price",
    tool: routeTool({
      name: "svc_get_token_price",
      title: "Token USD price on Base DEXes",
      description: `USD price of one tracked token: the median spot price of its up-to-five deepest indexed Base pools, with each pool and the spread. Symbols: ${marketSymbols.join(", ")} (case-insensitive; another symbol is an UNKNOWN_SYMBOL error listing them).`,
      input: z.object({ symbol: SymbolParam.describe(`A tracked token symbol: ${marketSymbols.join(", ")}`) }),
      output: TokenPriceResponse,
      serve:
        ({ market }) =>
        ({ symbol }) =>
          quoteTokenPrice(market.readMarket, symbol),
      summarize: (p) =>
        `${p.symbol} = ${p.priceUsd} USD (${p.basis}, spread ${p.spread.bps} bps) at block ${p.provenance.observationBlock.blockNumber}.`,
    }),
  },
);
