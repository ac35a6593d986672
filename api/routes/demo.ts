import type { AccessOptions } from "../access/AccessOptions";
import type { WorkBudget } from "../access/createWorkBudget";
import { type AuditContractDeps, auditContract } from "../capability/auditContract";
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
 * any other address. Each client's chain work is budgeted: a spent budget is 429 with Retry-After.
 */
export function mountDemoRoutes(mount: MountRoute, deps: DemoRouteDeps) {
  const allowlisted = new Set(deps.samples.map((s) => s.address.toLowerCase()));
  mount(routes.demoAudit, async (c) => {
    const { address } = c.req.valid("param");
    const client = deps.workBudget ? deps.clientBucket(c) : "";
    const wait = (await deps.workBudget?.retryAfterSeconds(client)) ?? 0;
    if (wait > 0) {
      throw new ApiError(
        "RATE_LIMITED",
        `this client's demo RPC reads for the minute are spent; retry in ${wait} s`,
        {},
        { "Retry-After": String(wait) },
      );
    }
    const result = await auditContract(deps, address);
    const reads = result.ok && !result.value.rpcObservation.observationReused ? result.value.rpcObservation.stateBearingCallCount : 1;
    await deps.workBudget?.spend(client, Math.max(1, reads));
    if (!result.ok) throw observationError(result);
    const audit = result.value;
    const headers = provenanceHeaders(audit.observationBlock);
    if (allowlisted.has(address.toLowerCase())) {
      return answerJson(c, { ...audit, demo: { allowlisted: true, samples: deps.samples } }, 200, headers);
    }
    const upgrade = {
      paidRoute: routes.audit.path.replace("{address}", address),
      x402PriceUsd: routes.audit.x402PriceUsd,
      plans: routes.plans.path,
    };
    return answerJson(c, previewAudit(audit, upgrade), 200, headers);
  });
}
