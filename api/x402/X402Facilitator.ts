import type { FacilitatorClient } from "@x402/core/server";

/** Why a facilitator cannot settle now (the status page's `x402Reason`). */
export type FacilitatorUnreadyReason =
  | "RPC_UNREACHABLE"
  | "GAS_KEY_UNFUNDED"
  | "FACILITATOR_UNREACHABLE"
  | "FACILITATOR_DOES_NOT_SETTLE_BASE_USDC";

export type FacilitatorReadiness = { ready: true } | { ready: false; reason: FacilitatorUnreadyReason };

/**
 * Verifies and settles x402 payments: the in-process facilitator (our own gas key) or a remote one
 * (a URL), behind x402's `FacilitatorClient`. `verify` throws `FacilitatorUnavailableError` when it
 * cannot reach the chain or the facilitator, and only then. `settle` throws when it cannot say what
 * became of the payment (the remote facilitator unreachable, the same payment's settlement still in
 * flight); the in-process one answers a broadcast that may have been taken `settlement_pending` with
 * its hash, and a settlement refused before any broadcast while the chain cannot be read
 * `chain_unreachable`, so the payer may pay again.
 */
export type X402Facilitator = FacilitatorClient & {
  kind: "IN_PROCESS" | "REMOTE";
  /** Whether it can settle now; shared by concurrent callers and reused for a few seconds. */
  readiness(): Promise<FacilitatorReadiness>;
};

/** The chain or the remote facilitator could not be reached: the payment was neither refused nor settled. */
export class FacilitatorUnavailableError extends Error {
  override name = "FacilitatorUnavailableError";
}

/**
 * `reason` when it is a short snake_case code (x402's `invalid_exact_evm_signature`), else `fallback`:
 * facilitators put raw RPC errors, calldata and addresses in their messages, and a remote facilitator's
 * reason is not ours to trust, so nothing else reaches a client. A code holding a run of 8 or more hex
 * characters with a digit (an address, a hash) is refused too.
 */
export function reasonCode(reason: string | undefined, fallback: string): string {
  if (!reason || reason.length > 64 || !/^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/.test(reason)) return fallback;
  return /(?=[0-9a-f]*[0-9])[0-9a-f]{8,}/.test(reason) ? fallback : reason;
}
