import { type AuditContractDeps, auditContract } from "../capability/auditContract";
import type { DemoSample } from "../capability/demoSamples";
import { previewAudit } from "../capability/previewAudit";
import { answerJson } from "../http/jsonAnswer";
import { observationError, provenanceHeaders } from "../http/provenance";
import type { MountRoute } from "./createRouteMounter";
import { routes } from "./routeTable";

/** The free demo: full evidence for the published samples, a tiered preview (priced as the paid audit) for any other address. */
export function mountDemoRoutes(mount: MountRoute, deps: AuditContractDeps & { samples: readonly DemoSample[] }) {
  const allowlisted = new Set(deps.samples.map((s) => s.address.toLowerCase()));
  mount(routes.demoAudit, async (c) => {
    const { address } = c.req.valid("param");
    const result = await auditContract(deps, address);
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
