import type { StatusReport } from "./StatusReport";

/**
 * The series whose availability is recorded, each judged from one status report:
 * - `legacyCore`: persistence (the app store and the index store) and Base RPC both reachable;
 * - `gateway`: the marketplace gateway's route (the preflight) can answer: gateway access configured,
 *   the core up and the chain read at evidence grade;
 * - `x402`: a paid x402 route can settle now (`paymentSettlement.x402` AVAILABLE);
 * - `marketplace`: the market-data routes can answer: a fresh index and an evidence-grade chain.
 * A series that is not configured is NOT_CONFIGURED and left out of its availability.
 */
export const healthSeries = ["legacyCore", "gateway", "x402", "marketplace"] as const;
export type HealthSeries = (typeof healthSeries)[number];

export type HealthState = "UP" | "DOWN" | "NOT_CONFIGURED";

const upOrDown = (up: boolean): HealthState => (up ? "UP" : "DOWN");

/** Each series' state in `report`; `gatewayConfigured`: GATEWAY_PROXY_SECRET_SHA256 is set. */
export function healthStates(report: StatusReport, gatewayConfigured: boolean): Record<HealthSeries, HealthState> {
  const core = report.persistence.appStore.available && report.persistence.indexStore.available && report.rpc.available;
  const evidenceGrade = report.verdictQuality === "EVIDENCE_GRADE";
  const x402 = report.paymentSettlement.x402;
  return {
    legacyCore: upOrDown(core),
    gateway: gatewayConfigured ? upOrDown(core && evidenceGrade) : "NOT_CONFIGURED",
    x402: x402 === "NOT_CONFIGURED" ? "NOT_CONFIGURED" : upOrDown(x402 === "AVAILABLE"),
    marketplace: upOrDown(core && evidenceGrade && !report.index.stale),
  };
}
