import type { AccessOptions } from "../access/AccessOptions";
import type { WorkBudget } from "../access/createWorkBudget";
import { type AuditContractDeps, auditContractCountingReads } from "../capability/auditContract";
import type { DemoSample } from "../capability/demoSamples";
import { previewAudit } from "../capability/previewAudit";
import { ApiError } from "../errors";
import { answerJson } from "../http/jsonAnswer";
import { observationError, provenanceHeaders } from "../http/provenance";
import type { MountRoute } from "./createRouteMounter";
import { routes } from "./routeTable";

export type DemoRouteDeps = AuditContractDeps &
  Pick<AccessOptions, "clientBucket"> & {
    samples: readonly DemoSample[];
    /** RPC reads each client may cause per minute (DEMO_RPC_READS_PER_MINUTE); absent: unbudgeted (the server always sets it). */
    workBudget?: WorkBudget;
  };

/**
 * The free demo: full evidence for the published samples, a tiered preview (priced as the paid audit) for
 * any other address. Each client's chain work is budgeted, one observation at a time: a spent budget, or a
 * demo audit of the client still running, is 429 with Retry-After.
 */
export function mountDemoRoutes(mount: MountRoute, deps: DemoRouteDeps) {
  const allowlisted = new Set(deps.samples.map((s) => s.address.toLowerCase()));
  mount(routes.demoAudit, async (c) => {
    const { address } = c.req.valid("param");
    const admission = deps.workBudget ? await deps.workBudget.admit(deps.clientBucket(c)) : undefined;
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
    const audit = result.value;
    const headers = provenanceHeaders(audit.observationBlock);
    if (allowlisted.has(address.toLowerCase())) {
      return answerJson(c, { ...audit, demo: { allowlisted: true, samples: deps.samples } }, 200, headers);
    }
    // The preview names the allowlist too: a caller learns which addresses the demo answers in full without guessing.
    const upgrade = {
      paidRoute: routes.audit.path.replace("{address}", address),
      x402PriceUsd: routes.audit.x402PriceUsd,
      plans: routes.plans.path,
    };
    return answerJson(c, { ...previewAudit(audit, upgrade), demo: { allowlisted: false, samples: deps.samples } }, 200, headers);
  });
}
