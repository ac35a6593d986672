import { probeProvider } from "../chain/probeProvider";
import { type CheckStatusDeps, checkStatus } from "../health/checkStatus";
import { shareHeadReads } from "../health/shareHeadReads";
import type { MountRoute } from "./createRouteMounter";
import { routes } from "./routeTable";

/**
 * The live status: 200, or 503 with the same body when persistence and RPC are both down. Provider
 * head reads are shared by concurrent calls and reused for a second.
 */
export function mountStatusRoutes(mount: MountRoute, deps: CheckStatusDeps) {
  // A provider that hangs costs the status page two seconds at most.
  const readHead = shareHeadReads(deps.readHead ?? ((provider, tag) => probeProvider(provider, tag, 2000)), { now: deps.now });
  mount(routes.status, async (c) => {
    const report = await checkStatus({ ...deps, readHead });
    c.header("Cache-Control", "no-store");
    return c.json(report, report.status === "UNAVAILABLE" ? 503 : 200);
  });
}
