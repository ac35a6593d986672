import { probeProvider } from "../chain/probeProvider";
import { type CheckStatusDeps, checkStatus } from "../health/checkStatus";
import { readAvailability } from "../health/readAvailability";
import type { StatusReport } from "../health/StatusReport";
import { shareHeadReads } from "../health/shareHeadReads";
import type { AppStore } from "../store/createAppStore";
import type { MountRoute } from "./createRouteMounter";
import { routes } from "./routeTable";

/** Where the status route reads the recorded health samples, their sampling interval, and the clock the windows end at. */
export type StatusHistoryDeps = { appStore: AppStore; healthSampleIntervalSeconds: number; clock?: () => Date };

/**
 * The live status with its recorded availability, as the route and the MCP tool answer it: provider
 * head reads are shared by concurrent calls and reused for a second.
 */
export function createStatusCheck(deps: CheckStatusDeps, history: StatusHistoryDeps): () => Promise<StatusReport> {
  // A provider that hangs costs the status page half its RPC_TIMEOUT_MS at most (2 s by default).
  const readHead = shareHeadReads(deps.readHead ?? probeProvider, { now: deps.now });
  const now = history.clock ?? (() => new Date());
  return async () => {
    const [report, availability] = await Promise.all([
      checkStatus({ ...deps, readHead }),
      history.appStore.ready
        .then(() => readAvailability(history.appStore.db, now(), history.healthSampleIntervalSeconds))
        .catch(() => undefined),
    ]);
    return { ...report, ...(availability ? { history: availability } : {}) };
  };
}

/** The live status: 200, or 503 with the same body when persistence and RPC are both down. */
export function mountStatusRoutes(mount: MountRoute, checkStatus: () => Promise<StatusReport>) {
  mount(routes.status, async (c) => {
    const report = await checkStatus();
    c.header("Cache-Control", "no-store");
    return c.json(report, report.status === "UNAVAILABLE" ? 503 : 200);
  });
}
