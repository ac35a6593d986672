import type { GuardObservation } from "./GuardObservation.js";

/** The transaction guard did not send a transaction: switch on `code`. */
export class TransactionGuardError extends Error {
  override name = "TransactionGuardError";
  constructor(
    readonly code: "GUARD_POLICY_REQUIRED" | "GUARD_REFUSED" | "GUARD_NO_TARGET" | "GUARD_WRONG_CHAIN",
    message: string,
  ) {
    super(message);
  }
}

/** No policy was given: observations are evidence for a policy, never a safety verdict, so the guard will not decide alone. */
export class GuardPolicyRequiredError extends TransactionGuardError {
  override name = "GuardPolicyRequiredError";
  constructor() {
    super(
      "GUARD_POLICY_REQUIRED",
      "the transaction guard needs a policy: the service's observations are not a safety verdict, so it does not decide without one",
    );
  }
}

/** The caller's policy refused the transaction after seeing the observation; nothing was sent. */
export class GuardRefusedError extends TransactionGuardError {
  override name = "GuardRefusedError";
  constructor(
    /** The policy's reason. */
    readonly reason: string,
    /** What the policy saw. */
    readonly observation: GuardObservation,
  ) {
    super("GUARD_REFUSED", `the policy refused the transaction to ${observation.transaction.to}: ${reason}`);
  }
}
