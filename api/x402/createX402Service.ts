import { x402ResourceServer } from "@x402/core/server";
import type { Network, PaymentPayload, PaymentRequired, PaymentRequirements, SettleResponse } from "@x402/core/types";
import { ExactEvmScheme } from "@x402/evm/exact/server";
import type { Address, Hex } from "viem";
import { type Failure, failure, type Result, success } from "../errors";
import type { AppDb } from "../store/createAppStore";
import { awaitStore } from "../store/isStoreUnavailable";
import {
  claimX402Payment,
  findX402Payment,
  recordX402Settlement,
  releaseX402Payment,
  type X402PaymentStatus,
} from "../store/x402PaymentQueries";
import type { ConfirmSettlement } from "./confirmSettlement";
import { type ExactEvmPaymentPayload, parsePaymentSignature } from "./parsePaymentSignature";
import { paymentId } from "./paymentId";
import { reasonCode } from "./reasonCode";
import { termsMismatch } from "./termsMismatch";
import { FacilitatorUnavailableError, type X402Facilitator } from "./X402Facilitator";

/** What a payable route tells x402: its name (the route table's), what it answers, and its price in USD. */
export type PaidRoute = { name: string; summary: string; x402PriceUsd: number };

/** A payment verified and claimed for one request: serve it, then settle or release it. */
export type AdmittedPayment = { id: string; route: PaidRoute; payload: ExactEvmPaymentPayload; requirements: PaymentRequirements };

/** How a settlement ended: the receipt for PAYMENT-RESPONSE, and the refusal to answer with when it failed. */
export type SettlementOutcome = { receipt: SettleResponse; refusal: Failure | null };

export type X402Service = {
  facilitator: X402Facilitator;
  /** The x402 v2 challenge of `route` (PAYMENT-REQUIRED): what to pay, in what, to whom. */
  challenge(route: PaidRoute, resourceUrl: string): Promise<Result<PaymentRequired>>;
  /**
   * Reads a PAYMENT-SIGNATURE, checks its terms, that it was never used, verifies it with the
   * facilitator, and claims it for this request. A refusal is PAYMENT_INVALID with a `reason` code and
   * a fresh challenge (`paymentRequired`), or PAYMENT_FACILITATOR_UNAVAILABLE.
   */
  admit(route: PaidRoute, resourceUrl: string, header: string): Promise<Result<AdmittedPayment>>;
  /** Settles an admitted payment once its answer is ready, and records how it ended. */
  settle(payment: AdmittedPayment): Promise<SettlementOutcome>;
  /** Gives an admitted payment back when its answer is not a 2xx: nothing is taken. */
  release(payment: AdmittedPayment): Promise<void>;
};

export type CreateX402ServiceParameters = {
  db: AppDb;
  storeReady: Promise<void>;
  facilitator: X402Facilitator;
  /** Where payments go. */
  payTo: Address;
  network: Network;
  /** How a settlement the facilitator reports is checked on the chain before the answer is released. */
  confirmSettlement: ConfirmSettlement;
  clock?: () => Date;
  /** Where a record that could not be written is reported (never with the payer). */
  log?: (message: string) => void;
};

/** How a payment's settlement ended, as recorded. */
type SettlementRecord = { status: "SETTLED" | "FAILED" | "PENDING"; reason: string | null; txHash: Hex | null };

/** Why a payment found in our records is refused, by its status there. */
const usedReason: Record<X402PaymentStatus, string> = {
  CLAIMED: "payment_in_progress",
  PENDING: "payment_in_progress",
  SETTLED: "payment_already_settled",
  FAILED: "payment_already_failed",
};

/**
 * Per-call x402 payment, framework-free (REST and MCP share it): x402's resource server with the
 * "exact" EVM scheme over `facilitator`, and our record of each payment in the app store, checked
 * before any work, so a payment is served once across concurrent requests and replicas.
 */
export function createX402Service(p: CreateX402ServiceParameters): X402Service {
  const clock = p.clock ?? (() => new Date());
  const log = p.log ?? ((message: string) => console.warn(message));
  const server = new x402ResourceServer(p.facilitator).register(p.network, new ExactEvmScheme());
  let initialized: Promise<void> | undefined;
  const requirementsByRoute = new Map<string, Promise<PaymentRequirements>>();

  /** The route's payment requirements, built once (after the facilitator said what it supports). */
  async function requirementsOf(route: PaidRoute): Promise<Result<PaymentRequirements>> {
    let requirements = requirementsByRoute.get(route.name);
    if (!requirements) {
      initialized ??= server.initialize();
      requirements = initialized
        .then(() =>
          server.buildPaymentRequirements({ scheme: "exact", network: p.network, price: `$${route.x402PriceUsd}`, payTo: p.payTo }),
        )
        .then(([built]) => built as PaymentRequirements);
      requirementsByRoute.set(route.name, requirements);
    }
    try {
      return success(await requirements);
    } catch {
      // Asked again next time: a facilitator that was down may be back.
      initialized = undefined;
      requirementsByRoute.delete(route.name);
      return failure("PAYMENT_FACILITATOR_UNAVAILABLE", "per-call payment cannot be offered now: the x402 facilitator cannot be reached");
    }
  }

  const challengeOf = (route: PaidRoute, requirements: PaymentRequirements, resourceUrl: string, reason: string) =>
    server.createPaymentRequiredResponse(
      [requirements],
      { url: resourceUrl, description: route.summary, mimeType: "application/json" },
      reason,
    );

  return {
    facilitator: p.facilitator,

    async challenge(route, resourceUrl) {
      const requirements = await requirementsOf(route);
      return requirements.ok ? success(await challengeOf(route, requirements.value, resourceUrl, "payment_required")) : requirements;
    },

    async admit(route, resourceUrl, header) {
      const requirements = await requirementsOf(route);
      if (!requirements.ok) return requirements;
      const ours = requirements.value;
      const refuse = async (reason: string) =>
        failure("PAYMENT_INVALID", `the payment was refused (${reason}); pay with the challenge in PAYMENT-REQUIRED`, {
          reason,
          paymentRequired: await challengeOf(route, ours, resourceUrl, reason),
        });

      const parsed = parsePaymentSignature(header);
      if (!parsed.ok) return refuse(parsed.reason);
      const payload = parsed.payload;
      const mismatch = termsMismatch(ours, payload.accepted);
      if (mismatch) return refuse(mismatch);
      if (!server.findMatchingRequirements([ours], payload as PaymentPayload)) return refuse("payment_terms_mismatch");

      const id = paymentId(ours, payload.payload.authorization);
      await awaitStore(p.storeReady);
      const known = await findX402Payment(p.db, id);
      if (known) return refuse(usedReason[known.status]);
      let verified: Awaited<ReturnType<typeof server.verifyPayment>>;
      try {
        verified = await server.verifyPayment(payload as PaymentPayload, ours);
      } catch (error) {
        if (error instanceof FacilitatorUnavailableError) {
          return failure("PAYMENT_FACILITATOR_UNAVAILABLE", "the payment cannot be verified now: the x402 facilitator cannot be reached");
        }
        throw error;
      }
      if (!verified.isValid) return refuse(reasonCode(verified.invalidReason, "payment_invalid"));

      const row = { id, route: route.name, network: ours.network, asset: ours.asset, amount: BigInt(ours.amount), claimedAt: clock() };
      if (!(await claimX402Payment(p.db, row))) {
        // Lost to a concurrent request carrying the same payment.
        return refuse(usedReason[(await findX402Payment(p.db, id))?.status ?? "CLAIMED"]);
      }
      return success({ id, route, payload, requirements: ours });
    },

    async settle(payment) {
      const outcome = await settleOnChain(payment);
      await record(payment, outcome);
      const transaction = outcome.txHash ?? "";
      if (outcome.status === "SETTLED") {
        const payer = payment.payload.payload.authorization.from;
        return { receipt: { success: true, transaction, network: p.network, payer }, refusal: null };
      }
      const reason = outcome.reason ?? "settlement_failed";
      return {
        receipt: { success: false, errorReason: reason, transaction, network: p.network },
        refusal: failure(
          "PAYMENT_SETTLEMENT_FAILED",
          `the payment could not be settled (${reason}); the answer is withheld and nothing was served`,
          { reason },
        ),
      };
    },

    async release(payment) {
      try {
        await releaseX402Payment(p.db, payment.id);
      } catch {
        log(`[x402] payment ${payment.id} could not be released; it stays claimed`);
      }
    },
  };

  /**
   * Settles through the facilitator, then checks the chain: a settlement counts once the transfer is
   * read at evidence grade. Its end, with a short reason code and the transaction (when there is one).
   */
  async function settleOnChain(payment: AdmittedPayment): Promise<SettlementRecord> {
    let result: SettleResponse;
    try {
      result = await server.settlePayment(payment.payload as PaymentPayload, payment.requirements);
    } catch {
      // The facilitator could not be reached: whether it broadcast the transfer is unknown.
      return { status: "PENDING", reason: "settlement_pending", txHash: null };
    }
    const txHash = /^0x[0-9a-fA-F]{64}$/.test(result.transaction) ? (result.transaction as Hex) : null;
    if (!result.success) {
      const reason = reasonCode(result.errorReason, "settlement_failed");
      return { status: reason === "settlement_pending" ? "PENDING" : "FAILED", reason, txHash };
    }
    if (!txHash) return { status: "PENDING", reason: "settlement_unconfirmed", txHash: null };
    const { from, to, value } = payment.payload.payload.authorization;
    const confirmation = await p.confirmSettlement(txHash, { from, to, amount: BigInt(value) });
    if (confirmation === "CONFIRMED") return { status: "SETTLED", reason: null, txHash };
    return confirmation === "CONTRADICTED"
      ? { status: "FAILED", reason: "settlement_not_on_chain", txHash }
      : { status: "PENDING", reason: "settlement_unconfirmed", txHash };
  }

  /** Records a settlement's end; a store failure is logged, never answered (the payment is already final). */
  async function record(payment: AdmittedPayment, outcome: SettlementRecord) {
    try {
      await recordX402Settlement(p.db, payment.id, { ...outcome, settledAt: clock() });
    } catch {
      log(`[x402] the settlement of payment ${payment.id} (${outcome.status}) could not be recorded`);
    }
  }
}
