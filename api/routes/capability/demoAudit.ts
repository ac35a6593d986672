import type { RouteHandler } from "@hono/zod-openapi";
import type { AccessEnv } from "../../access/AccessControlParameters";
import { auditContractCountingReads } from "../../capability/auditContract";
import { previewAudit } from "../../capability/previewAudit";
import { ApiError } from "../../errors";
import { answerJson } from "../../http/jsonAnswer";
import { observationError, provenanceHeaders } from "../../http/provenance";
import { plans } from "../catalogue";
import { defineRoute } from "../defineRoute";
import type { RouteParameters } from "../RouteParameters";
import { addressPath, observationErrors, provenanceHeaders as provenanceHeaderNames } from "../routeErrors";
import { servedRoute } from "../servedRoute";
import { audit } from "./audit";

const definition = defineRoute({
  group: "Capability",
  method: "get",
  path: "/v1/demo/audit/{address}",
  summary: "Free demo: full evidence for the published samples, a tiered preview for any other address",
  access: "public",
  counted: true,
  request: addressPath,
  responses: {
    200: {
      description: "AuditResponse or a PREVIEW record, both with `demo: {allowlisted, samples}`: the samples",
      headers: provenanceHeaderNames,
    },
  },
  errors: ["CREDENTIAL_IN_QUERY", "INVALID_ADDRESS", "RATE_LIMITED", ...observationErrors],
});

/**
 * The free demo: full evidence for the published samples, a tiered preview (priced as the paid audit) for
 * any other address. Each client's chain work is budgeted, one observation at a time: a spent budget, or a
 * demo audit of the client still running, is 429 with Retry-After.
 */
export const demoAudit = servedRoute(definition, { handler: demoHandler });

function demoHandler({ capability: deps, clientBucket }: RouteParameters): RouteHandler<(typeof definition)["openapi"], AccessEnv> {
  const allowlisted = new Set(deps.samples.map((s) => s.address.toLowerCase()));
  return async (c) => {
    const { address } = c.req.valid("param");
    const admission = deps.workBudget ? await deps.workBudget.admit(clientBucket(c)) : undefined;
    if (admission && !admission.ok) {
      const wait = admission.retryAfterSeconds;
      throw new ApiError(
        "RATE_LIMITED",
        `this client's demo RPC reads for the minute are spent, or its previous demo audit is still running; retry in ${wait} s`,
        {},
        { "Retry-After": String(wait) },
      );
    }
    // Charged once done, which frees the client for its next demo audit; a thrown observation costs one read.
    let counted: Awaited<ReturnType<typeof auditContractCountingReads>> | undefined;
    try {
      counted = await auditContractCountingReads(deps, address);
    } finally {
      await admission?.charge(Math.max(1, counted?.reads ?? 1));
    }
    const { result } = counted;
    if (!result.ok) throw observationError(result);
    const value = result.value;
    const headers = provenanceHeaders(value.observationBlock);
    if (allowlisted.has(address.toLowerCase())) {
      return answerJson(c, { ...value, demo: { allowlisted: true, samples: deps.samples } }, { headers });
    }
    // The preview names the allowlist too: a caller learns which addresses the demo answers in full without guessing.
    const upgrade = { paidRoute: audit.path.replace("{address}", address), x402PriceUsd: audit.x402PriceUsd, plans: plans.path };
    return answerJson(c, { ...previewAudit(value, upgrade), demo: { allowlisted: false, samples: deps.samples } }, { headers });
  };
}
