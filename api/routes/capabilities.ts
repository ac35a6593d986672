import { Hono } from "hono";
import type { Access, AccessEnv } from "../access/createAccess";
import { auditContract, scoreContract } from "../capability/auditContract";
import { observationFailureError, provenanceHeaders } from "../capability/observationFailureError";
import { type PreflightDeps, preflightTransaction, TransactionPreflightRequest } from "../capability/preflightTransaction";
import { dataSourceUnavailable } from "../errors";
import { AddressParam } from "../http/params";
import { parseJson, parseParam } from "../http/parseJson";

/**
 * Audit and coverage index (and its legacy URL): payable, one credit after a 2xx. Transaction preflight:
 * API key or marketplace gateway, one decision credit charged only once an evidence-grade answer is ready.
 */
export function capabilityRoutes(deps: PreflightDeps, access: Access) {
  return new Hono<AccessEnv>()
    .get("/v1/audit/:address", access.payable(), async (c) => {
      const address = parseParam("address", c.req.param("address"), AddressParam, "INVALID_ADDRESS");
      const result = await auditContract(deps, address);
      if (!result.ok) throw observationFailureError(result);
      return c.json(result.audit, 200, provenanceHeaders(result.audit.observationBlock));
    })
    .get("/v1/security/score/:address", access.payable(), async (c) => {
      const address = parseParam("address", c.req.param("address"), AddressParam, "INVALID_ADDRESS");
      const result = await scoreContract(deps, address);
      if (!result.ok) throw observationFailureError(result);
      return c.json(result.score, 200, provenanceHeaders(result.score.observationBlock));
    })
    .post("/v1/transaction/preflight", access.requireKeyOrGateway(), async (c) => {
      const request = await parseJson(c, TransactionPreflightRequest);
      const result = await preflightTransaction(deps, request);
      if (!result.ok) throw observationFailureError(result);
      const { preflight } = result;
      const headers = provenanceHeaders(preflight.observationBlock);
      if (!preflight.evidenceGrade) {
        // A decision product: without evidence grade there is no answer to charge for.
        const error = dataSourceUnavailable(`no evidence-grade observation block: ${preflight.observationBlock.reason}`, {
          observationBlock: preflight.observationBlock,
        });
        return c.json(error.body(), 503, headers);
      }
      const charged = await access.charge(c, 1);
      if (!charged.ok) throw charged.error;
      return c.json(preflight, 200, headers);
    });
}
