import type { AccessDeps } from "../access/createAccessDeps";
import { ApiError } from "../errors";
import { requestOrigin } from "../http/requestOrigin";
import { buildSamples } from "../samples/buildSamples";
import { authorizeStats } from "../stats/authorizeStats";
import { eventCounter } from "../stats/counterNames";
import { createStatsService } from "../stats/createStatsService";
import type { UsageCounters } from "../stats/createUsageCounters";
import type { CounterBucket } from "../store/countDaily";
import type { AppStore } from "../store/createAppStore";
import type { MountRoute } from "./createRouteMounter";
import { routes } from "./routeTable";

/** AppDeps.discovery: the usage counters, the stats' store and token, and the health history's sampling. */
export type DiscoveryDeps = {
  appStore: AppStore;
  counters: UsageCounters;
  /** This deployment's counter bucket (production on mainnet, test on the devnet). */
  bucket: CounterBucket;
  /** OPERATOR_STATS_TOKEN; undefined: no operator view of the stats. */
  operatorStatsToken: string | undefined;
  /** HEALTH_SAMPLE_INTERVAL_SECONDS: the status history's sampling interval. */
  healthSampleIntervalSeconds: number;
  clock?: () => Date;
};

const defaultStatsDays = 30;

/** Stats, product events and the frozen samples: the keyless discovery routes of the spec. */
export function mountDiscoveryRoutes(mount: MountRoute, deps: DiscoveryDeps, access: AccessDeps) {
  const stats = createStatsService({ db: deps.appStore.db, counters: deps.counters, bucket: deps.bucket, clock: deps.clock });
  const authorize = authorizeStats({ ...access, operatorToken: deps.operatorStatsToken });
  mount(routes.stats, async (c) => {
    const { days = defaultStatsDays, bucket } = c.req.valid("query");
    const view = await authorize(c, bucket !== undefined);
    c.header("Cache-Control", "no-store");
    return c.json(view === "OPERATOR" ? await stats.operatorView(days, bucket ?? "production") : await stats.publicView(days));
  });
  mount(routes.events, (c) => {
    deps.counters.add(eventCounter(c.req.valid("json")));
    return c.body(null, 202);
  });
  const samples = buildSamples();
  mount(routes.samples, (c) => c.json(samples.index(requestOrigin(c, access.origins))));
  mount(routes.sample, (c) => {
    const found = samples.sample(c.req.valid("query").name);
    if (!found.ok) throw ApiError.of(found);
    return c.json(found.value);
  });
}
