import { z } from "zod";
import { ApiError } from "../errors";
import { answerJson } from "../http/jsonAnswer";
import { readIndexReadiness } from "../index/readIndexReadiness";
import { defineRoute } from "./defineRoute";
import { servedRoute } from "./servedRoute";

/**
 * The load balancer's probes (outside /v1, not in the OpenAPI document): `GET /health` 200 while the
 * process is up, `GET /ready` 200 once the indexer's backfill is done, else 503 in the one error shape.
 */
export const health = servedRoute(
  defineRoute({
    group: "Probes",
    method: "get",
    path: "/health",
    summary: "Liveness probe: 200 while the process is up",
    access: "public",
    rateLimited: false,
    hidden: true,
    responses: { 200: { description: "{status: UP}", schema: z.object({ status: z.literal("UP") }) } },
    errors: ["CREDENTIAL_IN_QUERY"],
  }),
  {
    handler: () => (c) => answerJson(c, { status: "UP" as const }),
  },
);

export const ready = servedRoute(
  defineRoute({
    group: "Probes",
    method: "get",
    path: "/ready",
    summary: "Readiness probe: 200 once the indexer's historical backfill is done",
    access: "public",
    rateLimited: false,
    hidden: true,
    responses: { 200: { description: "{status: READY}", schema: z.object({ status: z.literal("READY") }) } },
    errors: ["CREDENTIAL_IN_QUERY", "NOT_READY", "INDEX_UNAVAILABLE"],
  }),
  {
    handler:
      ({ indexDb }) =>
      async (c) => {
        const readiness = await readIndexReadiness(indexDb);
        if (readiness === "BACKFILLING") throw new ApiError("NOT_READY", "the indexer's historical backfill is not complete");
        if (readiness === "UNAVAILABLE") throw new ApiError("INDEX_UNAVAILABLE", "the index store cannot be read");
        return answerJson(c, { status: "READY" as const });
      },
  },
);
