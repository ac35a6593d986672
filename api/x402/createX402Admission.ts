import { createHash } from "node:crypto";
import type { x402ResourceServer } from "@x402/core/server";
import type { PaymentPayload, PaymentRequirements } from "@x402/core/types";
import { extractAndValidatePaymentIdentifier } from "@x402/extensions/payment-identifier";
import type { Address } from "viem";
import { type Failure, failure, type Result, success } from "../errors";
import { awaitStore } from "../store/isStoreUnavailable";
import {
  claimWithinBalance,
  findX402Payment,
  findX402PaymentByIdentifier,
  forgetRetainedAnswers,
  payerCommitments,
  type X402PaymentRow,
  type X402PaymentStatus,
} from "../store/x402PaymentQueries";
import type { Admission, RequestPayment } from "./AdmittedPayment";
import type { CheckAuthorizationSignature } from "./authorizationSignature";
import type { X402Offer } from "./createX402Offer";
import type { X402Recovery } from "./createX402Recovery";
import type { X402Vouchers } from "./createX402Vouchers";
import type { PaidResource, PaidRoute } from "./PaidRoute";
import {
  type Eip3009Authorization,
  type ExactEvmPaymentPayload,
  isBatchSettlementPayment,
  parsePaymentSignature,
} from "./parsePaymentSignature";
import type { ReadPayerFunds } from "./readPayerFunds";
import type { PaymentRecords } from "./SettlementRecord";
import { FacilitatorUnavailableError, reasonCode } from "./X402Facilitator";

export type X402AdmissionParameters = PaymentRecords & {
  /** x402's resource server: it matches and verifies payments through the facilitator. */
  server: x402ResourceServer;
  offer: Pick<X402Offer, "requirementsOf" | "challengeOf">;
  recovery: X402Recovery;
  /** batch-settlement's vouchers, when the scheme is registered. */
  vouchers: X402Vouchers | null;
  storeReady: Promise<void>;
  /** A payer's balance and what its payments in flight take from it, read before a payment is claimed. */
  readPayerFunds: ReadPayerFunds;
  /** How a retry of a payment already taken proves it comes from the payer (its authorization's signature). */
  checkSignature: CheckAuthorizationSignature;
  /** How long paid answers and payment-identifier ids are kept for retries (X402_PAYMENT_ID_RETENTION_SECONDS). */
  retentionSeconds: number;
  /** How long before the read block's timestamp a recorded settlement is taken to be in the payer's balance read there. */
  settledInBalanceMs: number;
};

/**
 * Reads a PAYMENT-SIGNATURE, checks its terms and payment-identifier id, verifies it with the
 * facilitator and claims it for this request; a retry of a payment already paid for is its stored
 * answer. Refusals: PAYMENT_INVALID (a `reason` and a fresh challenge), PAYMENT_ID_INVALID,
 * PAYMENT_ID_CONFLICT, PAYMENT_PENDING, PAYMENT_SETTLEMENT_FAILED, PAYMENT_FACILITATOR_UNAVAILABLE.
 */
export type AdmitPayment = (route: PaidRoute, resource: PaidResource, header: string) => Promise<Result<Admission>>;

/**
 * How far the read block's clock may lag ours and the payer's settlements in that gap still have their
 * authorization states read (within X402_PAYER_AUTHORIZATION_READS): past it they count whole, as unread.
 */
export const chainClockLagReadMs = 600_000;

/** Why a payment found in our records is refused, by its status there. */
const usedReason: Record<X402PaymentStatus, string> = {
  CLAIMED: "payment_in_progress",
  PENDING: "payment_in_progress",
  SETTLED: "payment_already_settled",
  FAILED: "payment_already_failed",
};

/** The first of our terms that the requirements a client accepted differ in, as a reason code; null when all agree. */
export function termsMismatch(ours: PaymentRequirements, accepted: ExactEvmPaymentPayload["accepted"]): string | null {
  const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
  if (accepted.scheme !== ours.scheme) return "scheme_mismatch";
  if (accepted.network !== ours.network) return "network_mismatch";
  if (!same(accepted.asset, ours.asset)) return "asset_mismatch";
  if (!same(accepted.payTo, ours.payTo)) return "pay_to_mismatch";
  if (accepted.amount !== ours.amount) return "amount_mismatch";
  return null;
}

/**
 * The identity of a payment: one EIP-3009 authorization, which the token settles at most once (the
 * payer's nonce on that asset of that network). A SHA-256 of those four, so the record of a payment
 * never holds the payer's address.
 */
export function paymentId(terms: { network: string; asset: string }, authorization: Pick<Eip3009Authorization, "from" | "nonce">): string {
  const parts = [terms.network, terms.asset, authorization.from, authorization.nonce];
  return createHash("sha256").update(parts.join(":").toLowerCase()).digest("hex");
}

/**
 * The identity of a payer of one asset on one network, as a SHA-256 (the record never holds its
 * address): what its payments in flight are bounded by together.
 */
export function payerKey(terms: { network: string; asset: string }, from: string): string {
  return createHash("sha256").update([terms.network, terms.asset, from].join(":").toLowerCase()).digest("hex");
}

/**
 * What a payment pays for, as a SHA-256: the route, the resource path, the terms and the payer. Two
 * payments with one payment-identifier id must agree on it (the authorization's nonce, validity and
 * signature may differ: a client signs anew on each retry); the payer's address is not stored.
 */
export function paidRequestHash(routeName: string, path: string, terms: PaymentRequirements, payer: Address): string {
  const parts = [routeName, path, terms.scheme, terms.network, terms.asset, terms.payTo, terms.amount, payer];
  return createHash("sha256").update(parts.join("\n").toLowerCase()).digest("hex");
}

/**
 * Admission of a payment before any work: its terms, its id, the facilitator's verification, the
 * payer's balance against its payments in flight, and a claim in the app store, so a payment is served
 * once across concurrent requests and replicas; a retry of one already claimed goes to `recovery`. A
 * batch-settlement voucher, its terms checked, goes to `vouchers` (its channel is its claim).
 */
export function createX402Admission(p: X402AdmissionParameters): AdmitPayment {
  const { server, clock } = p;
  let lastForget = 0;

  /** Verifies a payment with the facilitator: null when valid, else the refusal. */
  async function verify(payload: ExactEvmPaymentPayload, ours: PaymentRequirements, refuse: (reason: string) => Promise<Failure>) {
    try {
      const verified = await server.verifyPayment(payload as PaymentPayload, ours);
      return verified.isValid ? null : refuse(reasonCode(verified.invalidReason, "payment_invalid"));
    } catch (error) {
      if (error instanceof FacilitatorUnavailableError) {
        return failure("PAYMENT_FACILITATOR_UNAVAILABLE", "the payment cannot be verified now: the x402 facilitator cannot be reached");
      }
      throw error;
    }
  }

  /** Checks that a retry of a payment already taken is signed by its payer: null when it is, else the refusal. */
  async function signatureRefusal(
    payload: ExactEvmPaymentPayload,
    ours: PaymentRequirements,
    refuse: (reason: string) => Promise<Failure>,
  ) {
    try {
      return (await p.checkSignature(payload, ours)) ? null : refuse("invalid_exact_evm_signature");
    } catch {
      return failure("PAYMENT_FACILITATOR_UNAVAILABLE", "the payment cannot be verified now: the chain cannot be read");
    }
  }

  /**
   * Forgets kept answers and ids past their retention, at most once a minute per process, beside the
   * request that triggers it (never awaited by it).
   */
  function forgetExpired() {
    if (Date.now() - lastForget < 60_000) return;
    lastForget = Date.now();
    forgetRetainedAnswers(p.db, clock()).catch(() => p.log("[x402] kept answers past their retention could not be forgotten"));
  }

  return async function admit(route, resource, header) {
    const requirements = await p.offer.requirementsOf(route);
    if (!requirements.ok) return requirements;
    const offered = requirements.value;
    const refuse = async (reason: string, payment?: PaymentPayload) =>
      failure("PAYMENT_INVALID", `the payment was refused (${reason}); pay with the challenge in PAYMENT-REQUIRED`, {
        reason,
        paymentRequired: await p.offer.challengeOf(route, offered, resource, reason, payment),
      });

    const parsed = parsePaymentSignature(header);
    if (!parsed.ok) return refuse(parsed.reason);
    const payload = parsed.payload;
    // A scheme not offered is compared with exact's terms: its refusal names the scheme.
    const ours = offered.find((terms) => terms.scheme === payload.accepted.scheme) ?? (offered[0] as PaymentRequirements);
    const mismatch = termsMismatch(ours, payload.accepted);
    if (mismatch) return refuse(mismatch);
    if (!server.findMatchingRequirements([ours], payload as PaymentPayload)) return refuse("payment_terms_mismatch");
    if (isBatchSettlementPayment(payload)) {
      return p.vouchers ? p.vouchers.admit(route, resource, payload, ours, refuse) : refuse("scheme_mismatch");
    }
    const identifier = extractAndValidatePaymentIdentifier(payload as PaymentPayload);
    if (!identifier.validation.valid) {
      return failure("PAYMENT_ID_INVALID", "the payment-identifier id must be 16-128 letters, digits, '-' or '_'", {
        reason: "invalid_payment_identifier",
      });
    }

    const { authorization } = payload.payload;
    const id = paymentId(ours, authorization);
    const requestHash = paidRequestHash(route.name, resource.path, ours, authorization.from);
    await awaitStore(p.storeReady);
    forgetExpired();
    const conflict = () =>
      failure("PAYMENT_ID_CONFLICT", "this payment-identifier id was used for another request: use a new id for a new request", {
        reason: "payment_identifier_conflict",
      });
    const requestPayment: RequestPayment = { id, route, resource, payload, requirements: ours };
    /**
     * A retry under an id already used: the same request, paid by the same payer (its signature checked), or a
     * conflict. The same authorization again is checked by its signature alone: its nonce is taken, and its
     * from, nonce and id are no secret (the chain, a facilitator).
     */
    const retryOf = async (row: X402PaymentRow): Promise<Result<Admission>> => {
      if (row.requestHash !== requestHash) return conflict();
      const refused = row.id === id ? await signatureRefusal(payload, ours, refuse) : await verify(payload, ours, refuse);
      return refused ?? p.recovery.outcomeOf(row.id, requestPayment);
    };

    if (identifier.id) {
      const used = await findX402PaymentByIdentifier(p.db, identifier.id, clock());
      if (used) return retryOf(used);
    }
    const known = await findX402Payment(p.db, id);
    if (known) {
      // The same authorization again: a settlement still unknown (or a claim whose process died) is
      // resolved, never paid a second time.
      if (!p.recovery.resolvable(known) || known.requestHash !== requestHash) return refuse(usedReason[known.status]);
      // Its from and nonce are public on the chain: only the payer's signature is served for it.
      const unsigned = await signatureRefusal(payload, ours, refuse);
      return unsigned ?? p.recovery.outcomeOf(id, requestPayment);
    }
    const refused = await verify(payload, ours, refuse);
    if (refused) return refused;

    const payer = payerKey(ours, authorization.from);
    // The claim below counts settlements from the read block's time, which a chain whose clock lags ours puts
    // further back: their authorization states are read too (one used by then leaves the sum), or an honest
    // payer's own settled payments would be counted whole against it.
    const recentlySettled = new Date(clock().getTime() - p.settledInBalanceMs - chainClockLagReadMs);
    const funds = await p.readPayerFunds(authorization.from, await payerCommitments(p.db, payer, recentlySettled)).catch(() => null);
    if (!funds) return failure("PAYMENT_FACILITATOR_UNAVAILABLE", "the payment cannot be verified now: the payer's balance cannot be read");
    // The balance is read at the pinned block, which a lagging provider keeps old: what was settled after it counts.
    const settledSince = new Date(Math.min(funds.blockTime.getTime(), clock().getTime()) - p.settledInBalanceMs);
    const claimedAt = clock();
    const claimed = await claimWithinBalance(
      p.db,
      {
        id,
        route: route.name,
        network: ours.network,
        asset: ours.asset,
        amount: BigInt(ours.amount),
        claimedAt,
        paymentIdentifier: identifier.id,
        requestHash,
        nonce: authorization.nonce,
        validBefore: BigInt(authorization.validBefore),
        retainedUntil: new Date(claimedAt.getTime() + p.retentionSeconds * 1000),
        payerKey: payer,
      },
      { settledSince, ...funds },
    );
    // The payer's other payments in flight already take what its balance holds: settling this one would revert.
    if (claimed === "OVER_BALANCE") return refuse("payer_balance_committed");
    if (claimed === "TAKEN") {
      // Lost to a concurrent request carrying the same payment or the same id.
      const used = identifier.id ? await findX402PaymentByIdentifier(p.db, identifier.id, clock()) : undefined;
      if (used) return retryOf(used);
      return refuse(usedReason[(await findX402Payment(p.db, id))?.status ?? "CLAIMED"]);
    }
    return success({ kind: "PAY", payment: { ...requestPayment, claimedAt, settledTx: null } });
  };
}
