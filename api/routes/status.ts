import { type CheckStatusDeps, checkStatus } from "../health/checkStatus";
import type { MountRoute } from "./createRouteMounter";
import { routes } from "./routeTable";

/** The live status: 200, or 503 with the same body when persistence and RPC are both down. */
export function mountStatusRoutes(mount: MountRoute, deps: CheckStatusDeps) {
  mount(routes.status, async (c) => {
    const report = await checkStatus(deps);
    c.header("Cache-Control", "no-store");
    return c.json(report, report.status === "UNAVAILABLE" ? 503 : 200);
  });
}
