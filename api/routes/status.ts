import { probeProvider } from "../chain/probeProvider";
import { type CheckStatusDeps, checkStatus } from "../health/checkStatus";
import type { StatusReport } from "../health/StatusReport";
import { shareHeadReads } from "../health/shareHeadReads";
import type { MountRoute } from "./createRouteMounter";
import { routes } from "./routeTable";

/**
 * The live status check the route and the MCP tool answer with: provider head reads are shared by
 * concurrent calls and reused for a second.
 */
export function createStatusCheck(deps: CheckStatusDeps): () => Promise<StatusReport> {
  // A provider that hangs costs the status page two seconds at most.
  const readHead = shareHeadReads(deps.readHead ?? ((provider, tag) => probeProvider(provider, tag, 2000)), { now: deps.now });
  return () => checkStatus({ ...deps, readHead });
}

/** The live status: 200, or 503 with the same body when persistence and RPC are both down. */
export function mountStatusRoutes(mount: MountRoute, checkStatus: () => Promise<StatusReport>) {
  mount(routes.status, async (c) => {
    const report = await checkStatus();
    c.header("Cache-Control", "no-store");
    return c.json(report, report.status === "UNAVAILABLE" ? 503 : 200);
  });
}
