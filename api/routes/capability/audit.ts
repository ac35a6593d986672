import { z } from "zod";
import { AuditResponse } from "../../capability/AuditResponse";
import { auditContract } from "../../capability/auditContract";
import { answerObservation } from "../../http/answerObservation";
import { AddressParam } from "../../http/params";
import { routeTool } from "../../mcp/McpTool";
import { defineRoute } from "../defineRoute";
import { addressPath, meteredErrors, meteredHeaders, observationErrors } from "../routeErrors";
import { payableRoute } from "../servedRoute";

/** Capability observations of one address at a pinned block; also the MCP tool `svc_audit_contract`. */
export const audit = payableRoute(
  defineRoute({
    group: "Capability",
    method: "get",
    path: "/v1/audit/{address}",
    summary: "Capability observations, proxy resolution and coverage index of one address at a pinned block",
    access: "apiKeyOrX402",
    counted: true,
    credits: 1,
    x402PriceUsd: 0.02,
    request: addressPath,
    responses: { 200: { description: "AuditResponse", schema: AuditResponse, headers: meteredHeaders } },
    errors: [...meteredErrors, "PAYMENT_REQUIRED", "INVALID_ADDRESS", "METHOD_NOT_ALLOWED", ...observationErrors],
  }),
  {
    handler:
      ({ capability }) =>
      async (c) =>
        answerObservation(c, await auditContract(capability, c.req.valid("param").address)),
    capture: "audit",
    tool: routeTool({
      name: "svc_audit_contract",
      title: "Audit a Base contract's capabilities",
      description:
        "Observes a Base contract's bytecode at a pinned block: capability observations (mint, pause, upgrade, blacklist, ...), proxy resolution to its implementation or Diamond facets, and a 0-100 coverage index with its deductions. Not a safety verdict: UNVERIFIED with a null score when evidence-grade data cannot be read.",
      input: z.object({ address: AddressParam.describe("The contract's address: 0x + 40 hex digits (checksummed or lowercase)") }),
      output: AuditResponse,
      serve:
        ({ capability }) =>
        ({ address }) =>
          auditContract(capability, address),
      summarize: (a) =>
        `${a.address}: ${a.capabilityRating}, coverage index ${a.capabilityScore ?? "null"}/100, ${a.detectedCapabilities.length} capability types detected (${a.detectedCapabilities.join(", ") || "none"}) at block ${a.observationBlock.blockNumber}; not a safety guarantee.`,
    }),
  },
);
