import { probeProvider } from "../chain/probeProvider";
import { cacheProbes } from "../health/cacheProbes";
import { type CheckStatusDeps, checkStatus } from "../health/checkStatus";
import type { MountRoute } from "./createRouteMounter";
import { routes } from "./routeTable";

/**
 * The live status: 200, or 503 with the same body when persistence and RPC are both down. Provider
 * probes are shared by concurrent calls and reused for a second.
 */
export function mountStatusRoutes(mount: MountRoute, deps: CheckStatusDeps) {
  const probe = cacheProbes(deps.probe ?? probeProvider, { now: deps.now });
  mount(routes.status, async (c) => {
    const report = await checkStatus({ ...deps, probe });
    c.header("Cache-Control", "no-store");
    return c.json(report, report.status === "UNAVAILABLE" ? 503 : 200);
  });
}
