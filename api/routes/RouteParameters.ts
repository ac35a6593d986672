import type { Context } from "hono";
import type { AccessParameters, KeyRouteParameters } from "../access/createAccessServices";
import type { WorkBudget } from "../access/createWorkBudget";
import type { AuditContractParameters } from "../capability/auditContract";
import type { DemoSample } from "../capability/demoSamples";
import type { StatusReport } from "../health/StatusReport";
import type { IndexDb } from "../index/indexDb";
import type { ListWhaleSignalsParameters } from "../market/listWhaleSignals";
import type { ObserveGasFeesParameters } from "../market/observeGasFees";
import type { ReadMarket } from "../market/readMarket";
import type { SimulateTradeParameters } from "../market/simulateTrade";

/** Live contract analysis: the Base providers, and the demo's published samples and work budget. */
export type CapabilityRouteParameters = AuditContractParameters & {
  samples: readonly DemoSample[];
  /** RPC reads each client may cause per minute (DEMO_RPC_READS_PER_MINUTE); absent: unbudgeted (the server always sets it). */
  workBudget?: WorkBudget;
};

/**
 * What the market routes read from: the chain for gas; our index, one reading per indexed block, for
 * prices and DEX metrics; that reading and the transfers' window for whale signals; the chain and the
 * DEXes' pool derivation for trade simulations.
 */
export type MarketRouteParameters = {
  gasFees: ObserveGasFeesParameters;
  readMarket: ReadMarket;
  whaleSignals: ListWhaleSignalsParameters;
  simulateTrade: SimulateTradeParameters;
};

/** What the route modules' handlers and tools are served from (`ServedRoute`): each takes the parts it uses. */
export type RouteParameters = {
  capability: CapabilityRouteParameters;
  market: MarketRouteParameters;
  /** The live status with its recorded availability (`createStatusCheck`). */
  checkStatus: () => Promise<StatusReport>;
  /** API keys, credits, rate limits, gateway: what the access middleware reads (key rotation and revocation use its key service). */
  access: AccessParameters;
  /** Free keys, purchases and recovery. */
  keyRoutes: KeyRouteParameters;
  /** The per-address bucket of a request (hashed client address): whose demo budget a call spends. */
  clientBucket: (c: Context) => string;
  /** Ponder's tables, read for readiness. */
  indexDb: IndexDb;
};
