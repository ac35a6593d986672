import { auditContract, scoreContract } from "../capability/auditContract";
import { type PreflightDeps, preflightTransaction } from "../capability/preflightTransaction";
import { answerJson } from "../http/jsonAnswer";
import { observationError, provenanceHeaders } from "../http/provenance";
import type { MountRoute } from "./createRouteMounter";
import { routes } from "./routeTable";

/** Audit, coverage index (its legacy URL) and transaction preflight: credits are charged by the routes' meter after a 2xx. */
export function mountCapabilityRoutes(mount: MountRoute, deps: PreflightDeps) {
  mount(routes.audit, async (c) => {
    const result = await auditContract(deps, c.req.valid("param").address);
    if (!result.ok) throw observationError(result);
    return answerJson(c, result.value, 200, provenanceHeaders(result.value.observationBlock));
  });
  mount(routes.score, async (c) => {
    const result = await scoreContract(deps, c.req.valid("param").address);
    if (!result.ok) throw observationError(result);
    return answerJson(c, result.value, 200, provenanceHeaders(result.value.observationBlock));
  });
  mount(routes.preflight, async (c) => {
    const result = await preflightTransaction(deps, c.req.valid("json"));
    if (!result.ok) throw observationError(result);
    return answerJson(c, result.value, 200, provenanceHeaders(result.value.observationBlock));
  });
}
