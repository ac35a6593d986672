import { afterAll, beforeAll } from "vitest";
import type { CreateAccessServicesParameters } from "../../api/access/createAccessServices";
import { createApp } from "../../api/app";
import type { DiscoveryParameters } from "../../api/routes/discovery";
import type { AggregateStats } from "../../api/stats/StatsResponse";
import type { X402Service } from "../../api/x402/createX402Service";
import type { Manifest } from "../../devnet/manifest";
import { type Backend, openBackend } from "../access/support";
import { testAccessServices } from "../support/access";
import { testAppParameters, testDiscoveryParameters, testOperatorStatsToken } from "../support/app";
import { testX402Service } from "../support/x402";

/** An app whose keys, counters and stats all live in `backend`'s store; the client address is read from x-forwarded-for. */
export function discoveryApp(
  manifest: Manifest,
  backend: Backend,
  access: Partial<CreateAccessServicesParameters> = {},
  discoveryOverrides: Partial<DiscoveryParameters> = {},
  x402: X402Service = testX402Service(manifest, backend.store),
) {
  const discovery = testDiscoveryParameters(backend.store, discoveryOverrides);
  const deps = testAppParameters(manifest, backend.indexDb, {
    ...testAccessServices(manifest, backend.indexDb, { store: backend.store, clientIpHeader: "x-forwarded-for", ...access }),
    x402,
    discovery,
  });
  return { app: createApp(deps), discovery };
}

/** The suite's backend and app over it, opened before its tests and closed after them. */
export function useDiscoveryBackend(manifest: Manifest, name: Backend["name"]) {
  const suite = {} as { backend: Backend; app: ReturnType<typeof createApp> };
  beforeAll(async () => {
    suite.backend = await openBackend(name);
    suite.app = discoveryApp(manifest, suite.backend).app;
  });
  afterAll(() => suite.backend.close());
  return suite;
}

export const operatorHeaders = { authorization: `Bearer ${testOperatorStatsToken}` };

/** The operator's exact totals of the devnet's `test` bucket over today. */
export async function operatorTotals(app: ReturnType<typeof createApp>): Promise<Record<string, number>> {
  const res = await app.request("/v1/stats?days=1&bucket=test", { headers: operatorHeaders });
  if (res.status !== 200) throw new Error(`stats: ${res.status} ${await res.text()}`);
  return ((await res.json()) as AggregateStats).totals;
}

/** How much each counter grew from `before` to `after` (only those that moved). */
export function grown(before: Record<string, number>, after: Record<string, number>): Record<string, number> {
  return Object.fromEntries(
    Object.entries(after)
      .map(([name, n]) => [name, n - (before[name] ?? 0)] as const)
      .filter(([, d]) => d !== 0),
  );
}
