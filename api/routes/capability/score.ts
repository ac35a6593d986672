import { ScoreResponse } from "../../capability/AuditResponse";
import { scoreContract } from "../../capability/auditContract";
import { answerObservation } from "../../http/answerObservation";
import { defineRoute } from "../defineRoute";
import { addressPath, meteredErrors, meteredHeaders, observationErrors } from "../routeErrors";
import { payableRoute } from "../servedRoute";

/** The coverage index with its deductions, at the spec's legacy URL. */
export const score = payableRoute(
  defineRoute({
    group: "Capability",
    method: "get",
    path: "/v1/security/score/{address}",
    summary: "Coverage index with its deduction breakdown (legacy URL)",
    access: "apiKeyOrX402",
    counted: true,
    credits: 1,
    x402PriceUsd: 0.02,
    request: addressPath,
    responses: { 200: { description: "ScoreResponse", schema: ScoreResponse, headers: meteredHeaders } },
    errors: [...meteredErrors, "PAYMENT_REQUIRED", "INVALID_ADDRESS", ...observationErrors],
  }),
  {
    handler:
      ({ capability }) =>
      async (c) =>
        answerObservation(c, await scoreContract(capability, c.req.valid("param").address)),
    capture: "security-score",
    // The spec's six tools leave the legacy URL out: svc_audit_contract answers the same coverage index.
    tool: null,
  },
);
