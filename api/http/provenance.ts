import { ApiError, type Failure } from "../errors";

export type ProvenanceBlock = { providerName: string | null; trustLevel: string };

/** `X-Service-RPC-Provider` and `X-Service-Trust-Level` of an observation block (none without one). */
export function provenanceHeaders(block: ProvenanceBlock | undefined): Record<string, string> {
  return block ? { "X-Service-RPC-Provider": block.providerName ?? "none", "X-Service-Trust-Level": block.trustLevel } : {};
}

/** A refused observation as an HTTP error, with the provenance of the block it could (not) pin. */
export function observationError(refusal: Failure): ApiError {
  return ApiError.of(refusal, provenanceHeaders(refusal.details?.observationBlock as ProvenanceBlock | undefined));
}
