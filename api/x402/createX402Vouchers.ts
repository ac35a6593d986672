import { encodePaymentResponseHeader } from "@x402/core/http";
import type { x402ResourceServer } from "@x402/core/server";
import { type Network, type PaymentPayload, type PaymentRequirements, SettleError, type SettleResponse } from "@x402/core/types";
import type { BatchSettlementEvmScheme } from "@x402/evm/batch-settlement/server";
import { type Failure, failure, type Result, success } from "../errors";
import type { Admission, AdmittedVoucher } from "./AdmittedPayment";
import type { StoreChannelStorage } from "./createStoreChannelStorage";
import type { SettlementOutcome } from "./createX402Settlement";
import { bodySha256 } from "./createX402Signer";
import type { PaidResource, PaidRoute } from "./PaidRoute";
import type { PaidAnswer } from "./paidAnswer";
import type { BatchSettlementEvmPaymentPayload } from "./parsePaymentSignature";
import { type PaymentRecords, settlementFailed } from "./SettlementRecord";
import { FacilitatorUnavailableError, reasonCode } from "./X402Facilitator";

export type X402VouchersParameters = Pick<PaymentRecords, "clock" | "log"> & {
  /** x402's resource server: the batch-settlement scheme's hooks verify, reserve and commit through it. */
  server: x402ResourceServer;
  /** The server scheme registered on `server`: it keeps each request's reservation under its payload. */
  scheme: BatchSettlementEvmScheme;
  /** The scheme's channels in the app store, which store each accepted voucher with its charge. */
  channels: StoreChannelStorage;
  network: Network;
};

/** batch-settlement's side of per-call payment: a voucher admitted off-chain, then charged with its answer or given back. */
export type X402Vouchers = {
  /**
   * Verifies a voucher (or a channel's first deposit with its voucher) and reserves it on its channel: off-chain
   * for a voucher on a channel whose escrow state was read lately, through the facilitator otherwise. A refusal
   * carries the challenge, with the channel's state when the client's cumulative amount is not ours.
   */
  admit(
    route: PaidRoute,
    resource: PaidResource,
    payload: BatchSettlementEvmPaymentPayload,
    ours: PaymentRequirements,
    refuse: (reason: string, payment: PaymentPayload) => Promise<Failure>,
  ): Promise<Result<Admission>>;
  /** Charges an admitted voucher for its (2xx) answer: the charge and the voucher stored in one transaction, before the answer leaves. */
  settle(voucher: AdmittedVoucher, answer: PaidAnswer): Promise<SettlementOutcome>;
  /** Gives an admitted voucher's reservation back when its answer is not a 2xx: nothing is charged. */
  release(voucher: AdmittedVoucher): Promise<null>;
};

/** The package's reason when its hooks could not read or write the channels (the app store): not the payment's fault. */
const channelsUnreadable = "invalid_batch_settlement_evm_verification_state_unavailable";

/**
 * Vouchers of x402's batch-settlement scheme: the package's server scheme decides (its hooks check the
 * cumulative amount, the payer's signature, the channel's balance, and reserve the channel for one request at
 * a time); what is ours is that an accepted voucher is stored in the app store (`x402_voucher`) in the
 * transaction that commits its charge, before its answer is sent, and that the answer is withheld unless both
 * were written.
 */
export function createX402Vouchers(p: X402VouchersParameters): X402Vouchers {
  const { server, scheme, channels, network } = p;
  const unchanneled = () =>
    failure("PERSISTENCE_UNAVAILABLE", "the payment cannot be verified now: the payment channels cannot be read; nothing was taken");
  // A connection lost during COMMIT leaves unknown whether it committed: a voucher sent again is then either
  // charged now or refused with the channel's state, which shows the charge.
  const unstored = () =>
    failure(
      "PERSISTENCE_UNAVAILABLE",
      "the voucher could not be stored now: the answer is withheld; send it again (if it was charged after all, the refusal's channel state shows it)",
    );

  /** PAYMENT-RESPONSE of a charged voucher: the channel's new state, which the client's next voucher builds on. */
  const chargedResponse = (result: SettleResponse) =>
    encodePaymentResponseHeader({
      success: true,
      transaction: result.transaction,
      network,
      ...(result.payer ? { payer: result.payer } : {}),
      ...(result.extra ? { extra: result.extra } : {}),
    });

  return {
    async admit(route, resource, payload, ours, refuse) {
      let verified: Awaited<ReturnType<x402ResourceServer["verifyPayment"]>>;
      try {
        verified = await server.verifyPayment(payload as PaymentPayload, ours);
      } catch (error) {
        if (error instanceof FacilitatorUnavailableError) {
          return failure("PAYMENT_FACILITATOR_UNAVAILABLE", "the payment cannot be verified now: the x402 facilitator cannot be reached");
        }
        throw error;
      }
      if (!verified.isValid) {
        const reason = reasonCode(verified.invalidReason, "payment_invalid");
        return reason === channelsUnreadable ? unchanneled() : refuse(reason, payload as PaymentPayload);
      }
      return success({ kind: "VOUCHER", payment: { route, resource, payload, requirements: ours } });
    },

    async settle(voucher, answer) {
      const { payload, requirements } = voucher;
      const pendingId = scheme.readRequestContext(payload as PaymentPayload)?.pendingId ?? "";
      const commit = channels.voucherOnCommit(pendingId, payload.payload.voucher.channelId, (channel) => ({
        channelId: channel.channelId.toLowerCase(),
        cumulativeAmount: BigInt(payload.payload.voucher.maxClaimableAmount),
        amount: BigInt(requirements.amount),
        signature: payload.payload.voucher.signature,
        route: voucher.route.name,
        answerStatus: answer.status,
        answerSha256: bodySha256(answer.body),
        acceptedAt: p.clock(),
      }));
      let result: SettleResponse;
      try {
        result = await server.settlePayment(payload as PaymentPayload, requirements);
      } catch (error) {
        // The scheme refused to charge (the channel was reserved anew, or the charge exceeds the voucher).
        const reason = error instanceof SettleError ? error.errorReason : undefined;
        result = { success: false, errorReason: reason ?? "settlement_failed", transaction: "", network };
      } finally {
        commit.dispose();
      }
      if (result.success && commit.committed) return { paymentResponse: chargedResponse(result), refusal: null };
      // The charge could not be written: the store's fault, retryable, and never a payment refusal.
      const reason = commit.storeFailed
        ? "voucher_store_unavailable"
        : result.success
          ? "voucher_not_stored"
          : reasonCode(result.errorReason, "settlement_failed");
      // Not charged: a charge whose voucher could not be stored (a cumulative amount taken already, the store
      // down) was rolled back with it. Its reservation is given back, so the channel is not held until it expires.
      await scheme.clearPendingRequest(payload as PaymentPayload).catch(() => p.log("[x402] a channel's reservation could not be cleared"));
      const paymentResponse = encodePaymentResponseHeader({ success: false, errorReason: reason, transaction: "", network });
      return { paymentResponse, refusal: commit.storeFailed ? unstored() : settlementFailed(reason) };
    },

    async release(voucher) {
      await scheme
        .clearPendingRequest(voucher.payload as PaymentPayload)
        .catch(() => p.log("[x402] a channel's reservation could not be cleared; it expires by itself"));
      return null;
    },
  };
}
