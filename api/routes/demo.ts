import { Hono, type MiddlewareHandler } from "hono";
import { type AuditContractDeps, auditContract } from "../capability/auditContract";
import type { DemoSample } from "../capability/demoSamples";
import { observationFailureError, provenanceHeaders } from "../capability/observationFailureError";
import { previewAudit } from "../capability/previewAudit";
import { AddressParam } from "../http/params";
import { parseParam } from "../http/parseJson";

/** Price of the paid audit, quoted in the preview's upgrade prompt. */
const auditPriceUsd = 0.02;

/** `GET /v1/demo/audit/{address}`: full evidence for the published samples, a tiered preview for any other address. */
export function demoRoutes(deps: AuditContractDeps & { samples: readonly DemoSample[] }, publicLimit: MiddlewareHandler) {
  const allowlisted = new Set(deps.samples.map((s) => s.address.toLowerCase()));
  return new Hono().get("/v1/demo/audit/:address", publicLimit, async (c) => {
    const address = parseParam("address", c.req.param("address"), AddressParam, "INVALID_ADDRESS");
    const result = await auditContract(deps, address);
    if (!result.ok) throw observationFailureError(result);
    const headers = provenanceHeaders(result.audit.observationBlock);
    if (allowlisted.has(address.toLowerCase())) {
      return c.json({ ...result.audit, demo: { allowlisted: true, samples: deps.samples } }, 200, headers);
    }
    return c.json(previewAudit(result.audit, auditPriceUsd), 200, headers);
  });
}
