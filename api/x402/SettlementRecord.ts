import type { Hex } from "viem";
import { failure } from "../errors";
import type { AppDb } from "../store/createAppStore";

/** Where each role of the x402 service keeps its record of payments: the app store, the clock its times come from, the log of what could not be written. */
export type PaymentRecords = {
  db: AppDb;
  clock: () => Date;
  /** Where a record that could not be written is reported (never with the payer). */
  log: (message: string) => void;
};

/** How a payment's settlement ended, as recorded. */
export type SettlementRecord = { status: "SETTLED" | "FAILED" | "PENDING"; reason: string | null; txHash: Hex | null };

/**
 * The reason recorded on a payment settled through a recovered claim: its authorization was public on
 * the chain before its answer was served, so a retry of the same header is served the kept answer
 * rather than refused (the payer's own retry must not lose to someone who copied it from the chain).
 */
export const recoveredClaim = "recovered_claim";

/** Seconds a client is asked to wait before retrying a payment whose outcome is not known yet. */
const pendingRetryAfterSeconds = 2;

export const isTxHash = (s: string | null | undefined): s is Hex => !!s && /^0x[0-9a-fA-F]{64}$/.test(s);

/** The refusal of a payment whose settlement is not known yet (`reason`): retry the same payment. */
export const settlementPending = (reason: string) =>
  failure(
    "PAYMENT_PENDING",
    "this payment's settlement is not known yet: retry the same payment (or payment-identifier id) later, and do not pay again",
    { reason, retryAfterSeconds: pendingRetryAfterSeconds },
  );

/** The refusal of a payment whose settlement failed (`reason`): nothing was taken. */
export const settlementFailed = (reason: string) =>
  failure("PAYMENT_SETTLEMENT_FAILED", `the payment could not be settled (${reason}); the answer is withheld and nothing was taken`, {
    reason,
  });
