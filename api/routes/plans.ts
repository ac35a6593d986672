import { Hono } from "hono";
import type { AccessDeps } from "../access/createAccessDeps";

/** `GET /v1/plans`: the authoritative plan and price catalogue (no credential). */
export function plansRoutes(deps: AccessDeps) {
  return new Hono().get("/v1/plans", deps.publicLimit(), (c) => c.json(deps.plans));
}
