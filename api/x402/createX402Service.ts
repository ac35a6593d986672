import { x402ResourceServer } from "@x402/core/server";
import type { Network } from "@x402/core/types";
import { BatchSettlementEvmScheme } from "@x402/evm/batch-settlement/server";
import { ExactEvmScheme } from "@x402/evm/exact/server";
import { bazaarResourceServerExtension } from "@x402/extensions/bazaar";
import { createOfferReceiptExtension } from "@x402/extensions/offer-receipt";
import type { Address } from "viem";
import type { Failure } from "../errors";
import type { AppDb } from "../store/createAppStore";
import { type AdmittedCall, isAdmittedVoucher } from "./AdmittedPayment";
import type { CheckAuthorizationSignature } from "./authorizationSignature";
import type { ConfirmSettlement } from "./confirmSettlement";
import { createPaymentResponse } from "./createPaymentResponse";
import { createStoreChannelStorage } from "./createStoreChannelStorage";
import { type AdmitPayment, createX402Admission } from "./createX402Admission";
import { createX402Offer, type X402Offer } from "./createX402Offer";
import { createX402Recovery } from "./createX402Recovery";
import { createX402Settlement, type SettlementOutcome } from "./createX402Settlement";
import type { X402Signer } from "./createX402Signer";
import { createX402Vouchers, type X402Vouchers } from "./createX402Vouchers";
import type { EscrowCodeCheck } from "./escrowCodeCheck";
import type { PaidAnswer } from "./paidAnswer";
import type { ReadPayerFunds } from "./readPayerFunds";
import type { ResolvePendingSettlement } from "./resolvePendingSettlement";
import type { X402Facilitator } from "./X402Facilitator";

/** Per-call x402 payment by role: the offer and its challenge, the admission of a payment, its settlement. */
export type X402Service = Pick<X402Offer, "offerOf" | "challenge"> & {
  facilitator: X402Facilitator;
  /** The key offers and receipts are signed with, or null when none is configured. */
  signer: Pick<X402Signer, "address" | "kid"> | null;
  admit: AdmitPayment;
  /** Settles an exact payment, or charges a batch-settlement voucher, for its (2xx) answer. */
  settle(call: AdmittedCall, answer: PaidAnswer): Promise<SettlementOutcome>;
  /** Gives an admitted payment or voucher back when its answer is not a 2xx (`X402Settlement.release`). */
  release(call: AdmittedCall): Promise<Failure | null>;
  /**
   * The batch-settlement server scheme (its channels in the app store), whose channel manager claims the
   * accepted vouchers; null when the scheme is not registered (no signing key to authorize claims).
   */
  batchScheme: BatchSettlementEvmScheme | null;
};

/** batch-settlement beside exact: where its escrow is checked, and the payer's withdrawal delay asked of channels. */
export type BatchSettlementParameters = {
  /** Whether the escrow runs on this chain with the expected code (checked at start). */
  escrow: EscrowCodeCheck;
  /** Seconds a payer's timed withdrawal must wait, asked of every channel (the package's minimum, 900, by default). */
  withdrawDelaySeconds?: number;
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
  /** How a settlement whose outcome is unknown is resolved from the chain when it is retried. */
  resolvePending: ResolvePendingSettlement;
  /** A payer's balance and what its payments in flight take from it, read before a payment is claimed. */
  readPayerFunds: ReadPayerFunds;
  /** How a retry of a payment already taken proves it comes from the payer (its authorization's signature). */
  checkSignature: CheckAuthorizationSignature;
  /** Signs offers, receipts and paid answers; null: none are signed. */
  signer: X402Signer | null;
  /** How long paid answers and payment-identifier ids are kept for retries (X402_PAYMENT_ID_RETENTION_SECONDS). */
  retentionSeconds: number;
  /** Longest a retry waits for the outcome of its payment in progress before it is told PAYMENT_PENDING. */
  retryWaitMs?: number;
  /**
   * Age past which a claim is taken for one whose process died before it recorded the settlement
   * (120: a served request settles within about a minute, the facilitator's 30 s and five confirmation
   * reads; replicas' clocks are assumed to agree within seconds).
   */
  staleClaimSeconds?: number;
  /**
   * How long before the read block's timestamp a recorded settlement is taken to be in the payer's
   * balance read there (60: the chain's clock and ours may differ, and a settlement is recorded after
   * its block); later ones are checked against the chain when a payment of the same payer is claimed.
   */
  settledInBalanceSeconds?: number;
  clock?: () => Date;
  /** Where a record that could not be written is reported (never with the payer). */
  log?: (message: string) => void;
  /**
   * x402's batch-settlement offered beside exact where its escrow is found; absent: exact alone. Needs
   * `signer`, whose key is the channels' receiverAuthorizer.
   */
  batchSettlement?: BatchSettlementParameters;
};

/**
 * Per-call x402 payment, framework-free (REST and MCP share it): x402's resource server with the
 * "exact" EVM scheme over `facilitator` (and "batch-settlement" where its escrow is found) and the
 * official extensions (payment-identifier, bazaar, offer-receipt), and our record of each payment in the
 * app store, checked before any work, so a payment is served once across concurrent requests and
 * replicas, and a retry never pays twice. Its roles: the offer (createX402Offer), the admission
 * (createX402Admission) with the retries of payments already claimed (createX402Recovery), the
 * settlement with its record (createX402Settlement), and batch-settlement's vouchers (createX402Vouchers).
 */
export function createX402Service(p: CreateX402ServiceParameters): X402Service {
  const log = p.log ?? ((message: string) => console.warn(message));
  const records = { db: p.db, clock: p.clock ?? (() => new Date()), log };
  const server = new x402ResourceServer(p.facilitator).register(p.network, new ExactEvmScheme());
  server.registerExtension(bazaarResourceServerExtension);
  if (p.signer) server.registerExtension(createOfferReceiptExtension(p.signer.issuer));
  const batch = p.batchSettlement && p.signer ? batchSettlementOf(p.batchSettlement, p.signer, p.db, p.payTo) : null;
  if (batch) {
    server.register(p.network, batch.scheme);
    // Checked at start, so that the first paid request does not wait for it.
    void p.batchSettlement?.escrow();
  }
  const vouchers = batch ? createX402Vouchers({ ...records, server, ...batch, network: p.network }) : null;

  const offer = createX402Offer({
    server,
    network: p.network,
    payTo: p.payTo,
    signer: p.signer,
    batchEscrow: batch ? (p.batchSettlement?.escrow ?? null) : null,
  });
  const paymentResponseOf = createPaymentResponse({ network: p.network, payTo: p.payTo, signer: p.signer, log });
  const recovery = createX402Recovery({
    ...records,
    payTo: p.payTo,
    resolvePending: p.resolvePending,
    paymentResponseOf,
    retryWaitMs: p.retryWaitMs ?? 15_000,
    staleClaimMs: (p.staleClaimSeconds ?? 120) * 1000,
  });
  const admit = createX402Admission({
    ...records,
    server,
    offer,
    recovery,
    vouchers,
    storeReady: p.storeReady,
    readPayerFunds: p.readPayerFunds,
    checkSignature: p.checkSignature,
    retentionSeconds: p.retentionSeconds,
    settledInBalanceMs: (p.settledInBalanceSeconds ?? 60) * 1000,
  });
  const { settle, release } = createX402Settlement({
    ...records,
    server,
    network: p.network,
    confirmSettlement: p.confirmSettlement,
    paymentResponseOf,
  });
  return {
    facilitator: p.facilitator,
    signer: p.signer,
    offerOf: offer.offerOf,
    challenge: offer.challenge,
    admit,
    settle: (call, answer) => (isAdmittedVoucher(call) ? (vouchers as X402Vouchers).settle(call, answer) : settle(call, answer)),
    release: (call) => (isAdmittedVoucher(call) ? (vouchers as X402Vouchers).release(call) : release(call)),
    batchScheme: batch?.scheme ?? null,
  };
}

/** The batch-settlement server scheme receiving at `payTo`, its channels and their vouchers in the app store. */
function batchSettlementOf(options: BatchSettlementParameters, signer: X402Signer, db: AppDb, payTo: Address) {
  const channels = createStoreChannelStorage(db);
  const scheme = new BatchSettlementEvmScheme(payTo, {
    storage: channels,
    receiverAuthorizerSigner: signer.receiverAuthorizer,
    ...(options.withdrawDelaySeconds === undefined ? {} : { withdrawDelay: options.withdrawDelaySeconds }),
  });
  return { scheme, channels };
}
