import type { Address, AuditResponse, Hex, TransactionPreflightResponse } from "../types.js";

/** The transaction about to be sent, as the policy sees it. */
export type GuardedTransaction = { to: Address; data: Hex | undefined; value: bigint | undefined; from: Address | undefined };

/** What the guard observed before sending: the target's audit, or a preflight of the exact call. */
export type GuardObservation =
  | { kind: "audit"; transaction: GuardedTransaction; audit: AuditResponse }
  | { kind: "preflight"; transaction: GuardedTransaction; preflight: TransactionPreflightResponse };

/** A policy's decision: anything but `{allow: true}` refuses. */
export type GuardVerdict = { allow: true } | { allow: false; reason: string };

/** The caller's rule: the service reports observations; deciding what is acceptable is the caller's. */
export type GuardPolicy = (observation: GuardObservation) => GuardVerdict | Promise<GuardVerdict>;
