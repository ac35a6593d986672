import { observationError, provenanceHeaders } from "../http/provenance";
import { type ListWhaleSignalsDeps, listWhaleSignals } from "../market/listWhaleSignals";
import { quoteTokenPrice } from "../market/quoteTokenPrice";
import { summarizeDexMetrics } from "../market/summarizeDexMetrics";
import type { MountRoute } from "./createRouteMounter";
import { routes } from "./routeTable";

export type MarketRouteDeps = ListWhaleSignalsDeps;

/** The index-backed market routes: token price, DEX metrics, whale signals (credits are charged by the meter after a 2xx). */
export function mountMarketRoutes(mount: MountRoute, deps: MarketRouteDeps) {
  mount(routes.tokenPrice, async (c) => {
    const result = await quoteTokenPrice(deps.readMarket, c.req.valid("param").symbol);
    if (!result.ok) throw observationError(result);
    return c.json(result.value, 200, provenanceHeaders(result.value.provenance.observationBlock));
  });
  mount(routes.dexMetrics, async (c) => {
    const result = await summarizeDexMetrics(deps.readMarket);
    if (!result.ok) throw observationError(result);
    return c.json(result.value, 200, provenanceHeaders(result.value.provenance.observationBlock));
  });
  mount(routes.whaleSignals, async (c) => {
    const result = await listWhaleSignals(deps);
    if (!result.ok) throw observationError(result);
    return c.json(result.value, 200, provenanceHeaders(result.value.provenance.observationBlock));
  });
}
