import { z } from "zod";
import { probeProvider } from "../chain/probeProvider";
import { success } from "../errors";
import { type CheckStatusParameters, checkStatus } from "../health/checkStatus";
import { readAvailability } from "../health/readAvailability";
import { StatusReport } from "../health/StatusReport";
import { shareHeadReads } from "../health/shareHeadReads";
import { answerJson } from "../http/jsonAnswer";
import { routeTool } from "../mcp/McpTool";
import type { AppStore } from "../store/createAppStore";
import { defineRoute } from "./defineRoute";
import { servedRoute } from "./servedRoute";

/** Where the status route reads the recorded health samples, their sampling interval, and the clock the windows end at. */
export type StatusHistoryParameters = { appStore: AppStore; healthSampleIntervalSeconds: number; clock?: () => Date };

/**
 * The live status with its recorded availability, as the route and the MCP tool answer it: provider
 * head reads are shared by concurrent calls and reused for a second.
 */
export function createStatusCheck(deps: CheckStatusParameters, history: StatusHistoryParameters): () => Promise<StatusReport> {
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

/** The live status: 200, or 503 with the same body when persistence and RPC are both down; also the MCP tool `svc_get_service_status`. */
export const status = servedRoute(
  defineRoute({
    group: "Discovery",
    method: "get",
    path: "/v1/status",
    summary: "Live status of persistence, Base RPC trust, the index, verdict quality and payment settlement",
    access: "public",
    responses: {
      200: { description: "Status, with `history`: availability per series and window where enough samples exist", schema: StatusReport },
      503: { description: "Persistence and RPC both unreachable (the same Status body)", schema: StatusReport },
    },
    errors: ["CREDENTIAL_IN_QUERY", "RATE_LIMITED"],
  }),
  {
    handler:
      ({ checkStatus }) =>
      async (c) => {
        const report = await checkStatus();
        const headers = { "Cache-Control": "no-store" };
        return report.status === "UNAVAILABLE" ? answerJson(c, report, { status: 503, headers }) : answerJson(c, report, { headers });
      },
    tool: routeTool({
      name: "svc_get_service_status",
      title: "Service status",
      description:
        "This service's operational status (OPERATIONAL, DEGRADED or UNAVAILABLE): RPC quorum and trust level, index lag, persistence availability and payment settlement. Free, no credential, no parameters.",
      input: z.object({}),
      output: StatusReport,
      serve:
        ({ checkStatus }) =>
        async () =>
          success(await checkStatus()),
      summarize: (s) => `Status ${s.status}: RPC ${s.rpc.trustLevel}, index head ${s.index.headBlock ?? "unknown"}.`,
    }),
  },
);
