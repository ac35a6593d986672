import { answerJson, sharedJson } from "../http/jsonAnswer";
import { observationError, provenanceHeaders } from "../http/provenance";
import { type ListWhaleSignalsDeps, listWhaleSignals } from "../market/listWhaleSignals";
import { type ObserveGasFeesDeps, observeGasFees } from "../market/observeGasFees";
import { quoteTokenPrice } from "../market/quoteTokenPrice";
import { summarizeDexMetrics } from "../market/summarizeDexMetrics";
import type { MountRoute } from "./createRouteMounter";
import { routes } from "./routeTable";

/** What the market routes read from: the chain for gas, our index (one reading per indexed block) for the rest. */
export type MarketRouteDeps = { gasFees: ObserveGasFeesDeps; indexed: ListWhaleSignalsDeps };

/** Market data, each answer with its provenance: credits are charged by the routes' meter after a 2xx. */
export function mountMarketRoutes(mount: MountRoute, deps: MarketRouteDeps) {
  mount(routes.gasFees, async (c) => {
    const result = await observeGasFees(deps.gasFees);
    if (!result.ok) throw observationError(result);
    return answerJson(c, result.value, 200, provenanceHeaders(result.value.provenance.observationBlock));
  });
  mount(routes.tokenPrice, async (c) => {
    const result = await quoteTokenPrice(deps.indexed.readMarket, c.req.valid("param").symbol);
    if (!result.ok) throw observationError(result);
    return sharedJson(c, result.value, 200, provenanceHeaders(result.value.provenance.observationBlock));
  });
  mount(routes.dexMetrics, async (c) => {
    const result = await summarizeDexMetrics(deps.indexed.readMarket);
    if (!result.ok) throw observationError(result);
    return answerJson(c, result.value, 200, provenanceHeaders(result.value.provenance.observationBlock));
  });
  mount(routes.whaleSignals, async (c) => {
    const result = await listWhaleSignals(deps.indexed);
    if (!result.ok) throw observationError(result);
    return answerJson(c, result.value, 200, provenanceHeaders(result.value.provenance.observationBlock));
  });
}
