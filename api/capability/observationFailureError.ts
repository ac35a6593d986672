import { ApiError, badRequest, dataSourceUnavailable } from "../errors";
import type { ObservationFailure } from "./observeContract";

/** The HTTP answer to an observation that could not be made: never a guessed value. */
export function observationFailureError(failure: ObservationFailure): ApiError {
  if (failure.reason === "REQUESTED_BLOCK_NOT_YET_MINED") {
    return badRequest("INVALID_BLOCK_NUMBER", "blockNumber is ahead of every provider's head");
  }
  const message =
    failure.reason === "READ_FAILED"
      ? "the pinned block's state could not be read from any provider"
      : "no Base RPC provider answered: no observation block could be pinned";
  const error = dataSourceUnavailable(message, { observationBlock: failure.block });
  return new ApiError(error.status, error.code, error.message, error.extra, provenanceHeaders(failure.block));
}

/** `X-Service-RPC-Provider` and `X-Service-Trust-Level` of an observation block. */
export function provenanceHeaders(block: { providerName: string | null; trustLevel: string }): Record<string, string> {
  return { "X-Service-RPC-Provider": block.providerName ?? "none", "X-Service-Trust-Level": block.trustLevel };
}
