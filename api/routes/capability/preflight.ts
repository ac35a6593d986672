import { preflightTransaction, TransactionPreflightRequest } from "../../capability/preflightTransaction";
import { TransactionPreflightResponse } from "../../capability/TransactionPreflightResponse";
import { answerObservation } from "../../http/answerObservation";
import { defineRoute, jsonRequestBody } from "../defineRoute";
import { bodyErrors, meteredErrors, meteredHeaders, observationErrors } from "../routeErrors";
import { servedRoute } from "../servedRoute";

/** Transaction preflight at a pinned block: an API key's credit or the marketplace gateway, never x402. */
export const preflight = servedRoute(
  defineRoute({
    group: "Capability",
    method: "post",
    path: "/v1/transaction/preflight",
    summary: "Transaction preflight evidence at a pinned block (API key or marketplace gateway; not x402)",
    description:
      "One decision credit, charged only after a valid evidence-grade answer is prepared; 503 when evidence grade cannot be reached. Bodies up to 320 KiB (128 KiB of calldata as hex).",
    access: "apiKeyOrGateway",
    counted: true,
    credits: 1,
    request: { body: jsonRequestBody(TransactionPreflightRequest) },
    maxBodyBytes: 320 * 1024,
    responses: { 200: { description: "TransactionPreflightResponse", schema: TransactionPreflightResponse, headers: meteredHeaders } },
    errors: [
      ...meteredErrors,
      "CREDENTIAL_REQUIRED",
      "INVALID_GATEWAY_CREDENTIAL",
      ...bodyErrors,
      "INVALID_BLOCK_NUMBER",
      "METHOD_NOT_ALLOWED",
      ...observationErrors,
    ],
  }),
  {
    handler:
      ({ capability }) =>
      async (c) =>
        answerObservation(c, await preflightTransaction(capability, c.req.valid("json"))),
    capture: "transaction-preflight",
  },
);
