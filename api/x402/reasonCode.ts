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
