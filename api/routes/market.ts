import { observationError, provenanceHeaders } from "../http/provenance";
import { type ObserveGasFeesDeps, observeGasFees } from "../market/observeGasFees";
import type { MountRoute } from "./createRouteMounter";
import { routes } from "./routeTable";

/** What the market routes read from. */
export type MarketRouteDeps = { gasFees: ObserveGasFeesDeps };

/** Market data, each answer with its provenance: credits are charged by the routes' meter after a 2xx. */
export function mountMarketRoutes(mount: MountRoute, deps: MarketRouteDeps) {
  mount(routes.gasFees, async (c) => {
    const result = await observeGasFees(deps.gasFees);
    if (!result.ok) throw observationError(result);
    return c.json(result.value, 200, provenanceHeaders(result.value.provenance.observationBlock));
  });
}
