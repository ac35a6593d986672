import type { RpcObservation } from "./ObservationBlock";

/**
 * The `rpcObservation` of an answer built on an observation: the reads that made the observation, then
 * this request's own reads at the same block; `reused` when an earlier request made the observation.
 */
export function combineRpcObservations(made: RpcObservation, own: RpcObservation, reused: boolean): RpcObservation {
  return {
    pinnedBlockTag: own.pinnedBlockTag ?? made.pinnedBlockTag,
    stateBearingCallCount: made.stateBearingCallCount + own.stateBearingCallCount,
    failedReadCount: made.failedReadCount + own.failedReadCount,
    failures: [...made.failures, ...own.failures],
    calls: [...made.calls, ...own.calls],
    roundTrips: made.roundTrips + own.roundTrips,
    observationReused: reused,
  };
}
