import { Hono } from "hono";
import { ApiError } from "../errors";
import type { IndexReadiness } from "../health/readIndexReadiness";
import { handleError, methodNotAllowedOrNotFound } from "../http/errorHandling";

/** What `/ready` reads: the indexer's readiness (readIndexReadiness over Ponder's db in the server). */
export type ProbeRoutesDeps = { readiness: () => Promise<IndexReadiness> };

/**
 * The load balancer's probes on the public port: `GET /health` 200 while the process is up, `GET /ready`
 * 200 once the indexer's backfill is done, else 503 in the one error shape.
 */
export function probeRoutes(deps: ProbeRoutesDeps) {
  const probes = new Hono();
  probes.get("/health", (c) => c.json({ status: "UP" }));
  probes.get("/ready", async (c) => {
    const readiness = await deps.readiness();
    if (readiness === "READY") return c.json({ status: "READY" });
    if (readiness === "BACKFILLING") throw new ApiError(503, "NOT_READY", "the indexer's historical backfill is not complete");
    throw new ApiError(503, "INDEX_UNAVAILABLE", "the index store cannot be read");
  });
  probes.all("/health", methodNotAllowedOrNotFound(probes));
  probes.all("/ready", methodNotAllowedOrNotFound(probes));
  probes.onError((err, c) => handleError(err, c));
  return probes;
}
