import { z } from "zod";
import type { AccessParameters } from "../access/createAccessServices";
import { ApiError } from "../errors";
import { ProductCta, ProductEvent, ProductPage } from "../events/ProductEvent";
import { answerJson } from "../http/jsonAnswer";
import { documentedEnum } from "../http/params";
import { requestOrigin } from "../http/requestOrigin";
import { buildSamples, type CapturedRoute } from "../samples/buildSamples";
import { SampleEnvelope, SampleIndex } from "../samples/SampleEnvelope";
import { sampleNames } from "../samples/sampleNames";
import { authorizeStats } from "../stats/authorizeStats";
import { eventCounter } from "../stats/counterNames";
import { createStatsService } from "../stats/createStatsService";
import type { UsageCounters } from "../stats/createUsageCounters";
import { AggregateStats, PublicStats, StatsQuery } from "../stats/StatsResponse";
import type { CounterBucket } from "../store/countDaily";
import type { AppStore } from "../store/createAppStore";
import { defineRoute, jsonRequestBody } from "./defineRoute";
import type { MountRoute } from "./MountRoute";
import { bodyErrors } from "./routeErrors";

/** AppParameters.discovery: the usage counters, the stats' store and token, and the health history's sampling. */
export type DiscoveryParameters = {
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

export const stats = defineRoute({
  group: "Discovery",
  method: "get",
  path: "/v1/stats",
  summary: "Aggregate usage: redacted public metadata, or exact identifier-free daily counters with the operator token",
  description:
    "Without Authorization: PublicStats (which counters moved, never a figure), limited per client address. With Authorization: Bearer <OPERATOR_STATS_TOKEN>: AggregateStats of `bucket` (default production), limited per token. `bucket` without operator authorization is 401. Without `bucket`, an Authorization that is not the operator token gets the public view.",
  access: "public",
  rateLimited: false,
  appStore: true,
  request: { query: StatsQuery },
  responses: {
    200: {
      description: "PublicStats, or AggregateStats with operator authorization",
      schema: z.union([PublicStats, AggregateStats]),
      headers: ["X-RateLimit-Remaining"],
    },
  },
  errors: [
    "CREDENTIAL_IN_QUERY",
    "INVALID_PARAMETER",
    "OPERATOR_UNAUTHORIZED",
    "TOO_MANY_FAILED_AUTHENTICATIONS",
    "RATE_LIMITED",
    "PERSISTENCE_UNAVAILABLE",
  ],
});

export const events = defineRoute({
  group: "Discovery",
  method: "post",
  path: "/v1/events",
  summary: "A product event of the site (pageViewed, ctaClicked), kept only as a daily aggregate counter",
  description: `Fixed enum dimensions only: page one of ${ProductPage.options.join(", ")}; cta one of ${ProductCta.options.join(", ")}. Any other field is 400. Nothing identifying is read or stored (no address, wallet, key, user agent or referrer). Bodies up to 1 KiB.`,
  access: "public",
  request: { body: jsonRequestBody(ProductEvent) },
  maxBodyBytes: 1024,
  responses: { 202: { description: "Counted (no body)" } },
  errors: [...bodyErrors, "CREDENTIAL_IN_QUERY", "RATE_LIMITED"],
});

export const samples = defineRoute({
  group: "Discovery",
  method: "get",
  path: "/v1/samples",
  summary: "The free frozen samples of the paid routes",
  access: "public",
  responses: { 200: { description: "Sample index", schema: SampleIndex, headers: ["X-RateLimit-Remaining"] } },
  errors: ["CREDENTIAL_IN_QUERY", "RATE_LIMITED"],
});

export const sample = defineRoute({
  group: "Discovery",
  method: "get",
  path: "/v1/sample",
  summary: "One frozen sample envelope: a real paid answer captured from the devnet (never current, never payment-gated)",
  description: `Names: ${sampleNames.join(", ")}. Any other name is 404 UNKNOWN_SAMPLE.`,
  access: "public",
  request: {
    query: z.object({
      name: documentedEnum(z.string().max(64), sampleNames).meta({ description: `One of ${sampleNames.join(", ")}` }),
    }),
  },
  responses: { 200: { description: "Sample envelope", schema: SampleEnvelope, headers: ["X-RateLimit-Remaining"] } },
  errors: ["CREDENTIAL_IN_QUERY", "INVALID_PARAMETER", "UNKNOWN_SAMPLE", "RATE_LIMITED"],
});

/** Stats, product events and the frozen samples (the captures `routes` name): the keyless discovery routes of the spec. */
export function mountDiscoveryRoutes(
  mount: MountRoute,
  deps: DiscoveryParameters,
  access: AccessParameters,
  routes: readonly CapturedRoute[],
) {
  const statsService = createStatsService({ db: deps.appStore.db, counters: deps.counters, bucket: deps.bucket, clock: deps.clock });
  const authorize = authorizeStats({ ...access, operatorToken: deps.operatorStatsToken });
  mount(stats, async (c) => {
    const { days = defaultStatsDays, bucket } = c.req.valid("query");
    const view = await authorize(c, bucket !== undefined);
    const body = view === "OPERATOR" ? await statsService.operatorView(days, bucket ?? "production") : await statsService.publicView(days);
    return answerJson(c, body, { headers: { "Cache-Control": "no-store" } });
  });
  mount(events, (c) => {
    deps.counters.add(eventCounter(c.req.valid("json")));
    return c.body(null, 202);
  });
  const captured = buildSamples(routes);
  mount(samples, (c) => answerJson(c, captured.index(requestOrigin(c, access.origins))));
  mount(sample, (c) => {
    const found = captured.sample(c.req.valid("query").name);
    if (!found.ok) throw ApiError.of(found);
    return answerJson(c, found.value, { shared: true });
  });
}
