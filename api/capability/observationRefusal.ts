import { type Failure, failure } from "../errors";
import type { ObservationFailure } from "./observeContract";

/** An observation that could not be made, as the service's refusal: never a guessed value. */
export function observationRefusal(observation: ObservationFailure): Failure {
  if (observation.reason === "REQUESTED_BLOCK_NOT_YET_MINED") {
    return failure("INVALID_BLOCK_NUMBER", "blockNumber is ahead of every provider's head");
  }
  const message =
    observation.reason === "READ_FAILED"
      ? "the pinned block's state could not be read from any provider"
      : "no Base RPC provider answered: no observation block could be pinned";
  return failure("DATA_SOURCE_UNAVAILABLE", message, { observationBlock: observation.block });
}
