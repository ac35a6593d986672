import { Hono } from "hono";
import { type CheckStatusDeps, checkStatus } from "../health/checkStatus";

/** `GET /v1/status`: 200 with the live status, 503 (same body) when persistence and RPC are both down. */
export function statusRoutes(deps: CheckStatusDeps) {
  return new Hono().get("/v1/status", async (c) => {
    const report = await checkStatus(deps);
    c.header("Cache-Control", "no-store");
    return c.json(report, report.status === "UNAVAILABLE" ? 503 : 200);
  });
}
