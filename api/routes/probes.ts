import { ApiError } from "../errors";
import { answerJson } from "../http/jsonAnswer";
import type { IndexDb } from "../index/indexDb";
import { readIndexReadiness } from "../index/readIndexReadiness";
import type { MountRoute } from "./createRouteMounter";
import { routes } from "./routeTable";

/**
 * The load balancer's probes (outside /v1, not in the OpenAPI document): `GET /health` 200 while the
 * process is up, `GET /ready` 200 once the indexer's backfill is done, else 503 in the one error shape.
 */
export function mountProbeRoutes(mount: MountRoute, deps: { indexDb: IndexDb }) {
  mount(routes.health, (c) => answerJson(c, { status: "UP" as const }, 200));
  mount(routes.ready, async (c) => {
    const readiness = await readIndexReadiness(deps.indexDb);
    if (readiness === "BACKFILLING") throw new ApiError("NOT_READY", "the indexer's historical backfill is not complete");
    if (readiness === "UNAVAILABLE") throw new ApiError("INDEX_UNAVAILABLE", "the index store cannot be read");
    return answerJson(c, { status: "READY" as const }, 200);
  });
}
