import { encodePaymentResponseHeader } from "@x402/core/http";
import { x402ResourceServer } from "@x402/core/server";
import type { Network, PaymentPayload, PaymentRequired, PaymentRequirements, SettleResponse } from "@x402/core/types";
import { ExactEvmScheme } from "@x402/evm/exact/server";
import { bazaarResourceServerExtension } from "@x402/extensions/bazaar";
import { createOfferReceiptExtension, declareOfferReceiptExtension, OFFER_RECEIPT } from "@x402/extensions/offer-receipt";
import {
  declarePaymentIdentifierExtension,
  extractAndValidatePaymentIdentifier,
  PAYMENT_IDENTIFIER,
} from "@x402/extensions/payment-identifier";
import type { Address, Hex } from "viem";
import { type Failure, failure, type Result, success } from "../errors";
import type { AppDb } from "../store/createAppStore";
import { awaitStore } from "../store/isStoreUnavailable";
import {
  claimWithinBalance,
  findX402Payment,
  findX402PaymentByIdentifier,
  forgetRetainedAnswers,
  payerCommitments,
  recordX402Settlement,
  releaseX402Payment,
  resolveX402Settlement,
  takeOverClaim,
  type X402PaymentRow,
  type X402PaymentStatus,
} from "../store/x402PaymentQueries";
import type { CheckAuthorizationSignature } from "./authorizationSignature";
import type { ConfirmSettlement } from "./confirmSettlement";
import { bodySha256, type X402Signer } from "./createX402Signer";
import { discoveryDeclaration, examplePath, routeTemplate } from "./discovery/discoveryDeclaration";
import { observationBlockOf, PaidAnswer } from "./paidAnswer";
import { paidRequestHash } from "./paidRequestHash";
import { type ExactEvmPaymentPayload, parsePaymentSignature } from "./parsePaymentSignature";
import { payerKey, paymentId } from "./paymentId";
import type { ReadPayerFunds } from "./readPayerFunds";
import { reasonCode } from "./reasonCode";
import type { ResolvePendingSettlement, SettlementResolution } from "./resolvePendingSettlement";
import { termsMismatch } from "./termsMismatch";
import { FacilitatorUnavailableError, type X402Facilitator } from "./X402Facilitator";

/** What a payable route tells x402, from the route table: its name, method, path, what it answers, its price, its parameters. */
export type PaidRoute = {
  name: string;
  method: "get" | "post";
  path: string;
  summary: string;
  x402PriceUsd: number;
  request?: { params?: unknown };
};

/** The resource one request pays for: its full URL (at the origin it came through) and its path. */
export type PaidResource = { url: string; path: string };

/** A payment verified and claimed for one request: serve it, then settle or release it. */
export type AdmittedPayment = {
  id: string;
  /** When this request claimed it: the claim's fence (`X402Claim`). */
  claimedAt: Date;
  route: PaidRoute;
  resource: PaidResource;
  payload: ExactEvmPaymentPayload;
  requirements: PaymentRequirements;
  /** The transfer that already paid for it: a claim recovered after its process died once it had settled. */
  settledTx: Hex | null;
};

/** The payment a request carries, before it holds a claim. */
type RequestPayment = Omit<AdmittedPayment, "claimedAt" | "settledTx">;

/** What a payment admits: work to do and settle, or an answer already paid for (a retry). */
export type Admission = { kind: "PAY"; payment: AdmittedPayment } | { kind: "REPLAY"; answer: PaidAnswer; paymentResponse: string };

/** How a settlement ended: PAYMENT-RESPONSE (base64), and the refusal to answer with when the answer is withheld. */
export type SettlementOutcome = { paymentResponse: string; refusal: Failure | null };

export type X402Service = {
  facilitator: X402Facilitator;
  /** The key offers and receipts are signed with, or null when none is configured. */
  signer: Pick<X402Signer, "address" | "kid"> | null;
  /** Requirements and declared extensions of a route, as its challenge carries them (the discovery listing reads them). */
  offerOf(route: PaidRoute): Promise<Result<{ requirements: PaymentRequirements; extensions: Record<string, unknown> }>>;
  /** The x402 v2 challenge of `route` (PAYMENT-REQUIRED): what to pay, in what, to whom; discovery, ids and a signed offer. */
  challenge(route: PaidRoute, resource: PaidResource): Promise<Result<PaymentRequired>>;
  /**
   * Reads a PAYMENT-SIGNATURE, checks its terms and payment-identifier id, verifies it with the
   * facilitator and claims it for this request; a retry of a payment already paid for is its stored
   * answer. Refusals: PAYMENT_INVALID (a `reason` and a fresh challenge), PAYMENT_ID_INVALID,
   * PAYMENT_ID_CONFLICT, PAYMENT_PENDING, PAYMENT_SETTLEMENT_FAILED, PAYMENT_FACILITATOR_UNAVAILABLE.
   */
  admit(route: PaidRoute, resource: PaidResource, header: string): Promise<Result<Admission>>;
  /** Settles an admitted payment for its (2xx) answer, records both, and signs the receipt. */
  settle(payment: AdmittedPayment, answer: PaidAnswer): Promise<SettlementOutcome>;
  /**
   * Gives an admitted payment back when its answer is not a 2xx: nothing is taken. A payment already
   * taken (a recovered claim, `settledTx`) cannot be: its refusal (PAYMENT_PENDING, retry the same
   * payment) replaces the answer.
   */
  release(payment: AdmittedPayment): Promise<Failure | null>;
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
 * The reason recorded on a payment settled through a recovered claim: its authorization was public on
 * the chain before its answer was served, so a retry of the same header is served the kept answer
 * rather than refused (the payer's own retry must not lose to someone who copied it from the chain).
 */
const recoveredClaim = "recovered_claim";

/** Seconds a client is asked to wait before retrying a payment whose outcome is not known yet. */
const pendingRetryAfterSeconds = 2;

const pause = (ms: number) => new Promise((wake) => setTimeout(wake, ms));
const isTxHash = (s: string | null | undefined): s is Hex => !!s && /^0x[0-9a-fA-F]{64}$/.test(s);

/**
 * Per-call x402 payment, framework-free (REST and MCP share it): x402's resource server with the
 * "exact" EVM scheme over `facilitator` and the official extensions (payment-identifier, bazaar,
 * offer-receipt), and our record of each payment in the app store, checked before any work, so a
 * payment is served once across concurrent requests and replicas, and a retry never pays twice.
 */
export function createX402Service(p: CreateX402ServiceParameters): X402Service {
  const clock = p.clock ?? (() => new Date());
  const log = p.log ?? ((message: string) => console.warn(message));
  const retryWaitMs = p.retryWaitMs ?? 15_000;
  const staleClaimMs = (p.staleClaimSeconds ?? 120) * 1000;
  const settledInBalanceMs = (p.settledInBalanceSeconds ?? 60) * 1000;
  const isStale = (row: X402PaymentRow) => row.status === "CLAIMED" && clock().getTime() - row.claimedAt.getTime() >= staleClaimMs;
  const server = new x402ResourceServer(p.facilitator).register(p.network, new ExactEvmScheme());
  server.registerExtension(bazaarResourceServerExtension);
  if (p.signer) server.registerExtension(createOfferReceiptExtension(p.signer.issuer));
  let initialized: Promise<void> | undefined;
  const requirementsByRoute = new Map<string, Promise<PaymentRequirements>>();
  let lastForget = 0;

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

  /** The extensions every payable route declares: discovery, optional payment ids, signed offers and receipts. */
  const declaredExtensions = (route: PaidRoute): Record<string, unknown> => ({
    ...discoveryDeclaration(route),
    [PAYMENT_IDENTIFIER]: declarePaymentIdentifierExtension(false),
    ...(p.signer ? declareOfferReceiptExtension({ includeTxHash: true, offerValiditySeconds: 300 }) : {}),
  });

  /** The transport context x402's extensions read: the method, the path and its route template. */
  const transportOf = (route: PaidRoute, resource: PaidResource) => ({
    method: route.method.toUpperCase(),
    routePattern: routeTemplate(route),
    adapter: { getPath: () => resource.path, getUrl: () => resource.url, getMethod: () => route.method.toUpperCase() },
  });

  const challengeOf = (route: PaidRoute, requirements: PaymentRequirements, resource: PaidResource, reason: string) => {
    const transport = transportOf(route, resource);
    return server.createPaymentRequiredResponse(
      [requirements],
      { url: resource.url, description: route.summary, mimeType: "application/json" },
      reason,
      server.enrichExtensions(declaredExtensions(route), transport),
      transport,
    );
  };

  const pending = (reason: string) =>
    failure(
      "PAYMENT_PENDING",
      "this payment's settlement is not known yet: retry the same payment (or payment-identifier id) later, and do not pay again",
      { reason, retryAfterSeconds: pendingRetryAfterSeconds },
    );
  const settlementFailed = (reason: string) =>
    failure("PAYMENT_SETTLEMENT_FAILED", `the payment could not be settled (${reason}); the answer is withheld and nothing was taken`, {
      reason,
    });

  /** PAYMENT-RESPONSE of a settled payment: x402's receipt signed for it, and the paid answer bound to it. */
  async function paymentResponseOf(
    row: Pick<X402PaymentRow, "route" | "asset" | "amount">,
    payer: Address,
    url: string,
    txHash: Hex,
    answer: PaidAnswer,
  ) {
    const response: SettleResponse = { success: true, transaction: txHash, network: p.network, payer };
    if (p.signer) {
      try {
        const receipt = await p.signer.issuer.issueReceipt(url, payer, p.network, txHash);
        if (receipt.format === "eip712") {
          const paidAnswer = await p.signer.signPaidAnswer(receipt, {
            route: row.route,
            resourceUrl: url,
            network: p.network,
            asset: row.asset as Address,
            payTo: p.payTo,
            amount: row.amount.toString(),
            transaction: txHash,
            bodySha256: bodySha256(answer.body),
            observationBlock: String(observationBlockOf(answer) ?? 0),
          });
          response.extensions = { [OFFER_RECEIPT]: { info: { receipt, paidAnswer } } };
        }
      } catch {
        log("[x402] a receipt could not be signed; the answer is served without one");
      }
    }
    return encodePaymentResponseHeader(response);
  }

  /**
   * The outcome of a payment already claimed, for a retry of it (the same authorization, or the same
   * payment-identifier id and request): its stored answer once settled (a pending settlement resolved
   * from the chain first, a stale claim recovered), a refusal once failed, PAYMENT_PENDING while it is
   * not known by the deadline.
   */
  async function outcomeOf(rowId: string, retry: RequestPayment): Promise<Result<Admission>> {
    const payer = retry.payload.payload.authorization.from;
    const resource = retry.resource;
    const deadline = Date.now() + retryWaitMs;
    for (;;) {
      const row = await findX402Payment(p.db, rowId);
      if (!row) return failure("PAYMENT_PENDING", "the payment's first request was not answered: retry it", { retryAfterSeconds: 1 });
      if (row.status === "SETTLED") {
        const answer = row.answer ? PaidAnswer.safeParse(JSON.parse(row.answer)) : null;
        if (answer?.success && row.paymentResponse)
          return success({ kind: "REPLAY", answer: answer.data, paymentResponse: row.paymentResponse });
        return failure("PAYMENT_INVALID", "the payment was settled and its answer is no longer kept", {
          reason: "payment_already_settled",
        });
      }
      if (row.status === "FAILED") return settlementFailed(row.reason ?? "settlement_failed");
      if (row.status === "PENDING") {
        const resolution = await resolveFromChain(row, payer);
        if (resolution.status === "SETTLED") {
          const answer = PaidAnswer.parse(JSON.parse(row.answer ?? "null"));
          const paymentResponse = await paymentResponseOf(row, payer, resource.url, resolution.txHash, answer);
          await resolveX402Settlement(p.db, rowId, {
            status: "SETTLED",
            txHash: resolution.txHash,
            reason: null,
            settledAt: clock(),
            paymentResponse,
          });
          continue;
        }
        if (resolution.status === "FAILED") {
          await resolveX402Settlement(p.db, rowId, {
            status: "FAILED",
            txHash: row.txHash,
            reason: resolution.reason,
            settledAt: clock(),
            answer: null,
          });
          continue;
        }
      }
      const stale = isStale(row);
      if (stale) {
        const recovered = await recoverStaleClaim(row, retry);
        if (recovered) return recovered;
      }
      if (Date.now() >= deadline) return pending(row.status === "PENDING" ? (row.reason ?? "settlement_pending") : "payment_in_progress");
      await pause(row.status === "PENDING" || stale ? 1_000 : 100);
    }
  }

  /** What the chain says became of a payment's authorization; PENDING when that cannot be read. */
  async function resolveFromChain(row: X402PaymentRow, payer: Address): Promise<SettlementResolution> {
    if (!row.nonce || row.validBefore === null) return { status: "PENDING" };
    try {
      return await p.resolvePending({
        from: payer,
        to: p.payTo,
        amount: row.amount,
        nonce: row.nonce as Hex,
        validBefore: row.validBefore,
        txHash: isTxHash(row.txHash) ? row.txHash : null,
      });
    } catch {
      log(`[x402] payment ${row.id}: its settlement could not be read from the chain`);
      return { status: "PENDING" };
    }
  }

  /**
   * A stale claim: its process died between the claim and the record of its settlement. The chain
   * says what became of the authorization: used, this request takes the claim over (keeping the
   * transfer's hash) and is served for the transfer already made, with no second one; unused at a block
   * past its validity, it failed and nothing was taken. Null while neither is known (an unused
   * authorization may still be broadcast until it expires), or when another retry took the claim over.
   */
  async function recoverStaleClaim(row: X402PaymentRow, retry: RequestPayment): Promise<Result<Admission> | null> {
    const resolution = await resolveFromChain(row, retry.payload.payload.authorization.from);
    if (resolution.status === "FAILED") {
      const failed = { status: "FAILED", txHash: null, reason: resolution.reason, settledAt: clock(), answer: null } as const;
      return (await recordX402Settlement(p.db, row, failed)) ? settlementFailed(resolution.reason) : null;
    }
    if (resolution.status !== "SETTLED") return null;
    const claimedAt = clock();
    if (!(await takeOverClaim(p.db, row, claimedAt, resolution.txHash))) return null;
    log(`[x402] payment ${row.id}: a claim left by a process that died is served by this request, for the transfer already made`);
    return success({ kind: "PAY", payment: { ...retry, id: row.id, claimedAt, settledTx: resolution.txHash } });
  }

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
    forgetRetainedAnswers(p.db, clock()).catch(() => log("[x402] kept answers past their retention could not be forgotten"));
  }

  return {
    facilitator: p.facilitator,
    signer: p.signer,

    async offerOf(route) {
      const requirements = await requirementsOf(route);
      if (!requirements.ok) return requirements;
      const path = examplePath(route);
      const extensions = server.enrichExtensions(declaredExtensions(route), transportOf(route, { url: path, path }));
      return success({ requirements: requirements.value, extensions });
    },

    async challenge(route, resource) {
      const requirements = await requirementsOf(route);
      return requirements.ok ? success(await challengeOf(route, requirements.value, resource, "payment_required")) : requirements;
    },

    async admit(route, resource, header) {
      const requirements = await requirementsOf(route);
      if (!requirements.ok) return requirements;
      const ours = requirements.value;
      const refuse = async (reason: string) =>
        failure("PAYMENT_INVALID", `the payment was refused (${reason}); pay with the challenge in PAYMENT-REQUIRED`, {
          reason,
          paymentRequired: await challengeOf(route, ours, resource, reason),
        });

      const parsed = parsePaymentSignature(header);
      if (!parsed.ok) return refuse(parsed.reason);
      const payload = parsed.payload;
      const mismatch = termsMismatch(ours, payload.accepted);
      if (mismatch) return refuse(mismatch);
      if (!server.findMatchingRequirements([ours], payload as PaymentPayload)) return refuse("payment_terms_mismatch");
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
        return refused ?? outcomeOf(row.id, requestPayment);
      };

      if (identifier.id) {
        const used = await findX402PaymentByIdentifier(p.db, identifier.id, clock());
        if (used) return retryOf(used);
      }
      const known = await findX402Payment(p.db, id);
      if (known) {
        // The same authorization again: a settlement still unknown (or a claim whose process died) is
        // resolved, never paid a second time.
        const resolvable = known.status === "PENDING" || isStale(known) || (known.status === "SETTLED" && known.reason === recoveredClaim);
        if (!resolvable || known.requestHash !== requestHash) return refuse(usedReason[known.status]);
        // Its from and nonce are public on the chain: only the payer's signature is served for it.
        const unsigned = await signatureRefusal(payload, ours, refuse);
        return unsigned ?? outcomeOf(id, requestPayment);
      }
      const refused = await verify(payload, ours, refuse);
      if (refused) return refused;

      const payer = payerKey(ours, authorization.from);
      const recentlySettled = new Date(clock().getTime() - settledInBalanceMs);
      const funds = await p.readPayerFunds(authorization.from, await payerCommitments(p.db, payer, recentlySettled)).catch(() => null);
      if (!funds)
        return failure("PAYMENT_FACILITATOR_UNAVAILABLE", "the payment cannot be verified now: the payer's balance cannot be read");
      // The balance is read at the pinned block, which a lagging provider keeps old: what was settled after it counts.
      const settledSince = new Date(Math.min(funds.blockTime.getTime(), clock().getTime()) - settledInBalanceMs);
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
    },

    async settle(payment, answer) {
      const outcome: SettlementRecord = payment.settledTx
        ? { status: "SETTLED", reason: recoveredClaim, txHash: payment.settledTx }
        : await settleOnChain(payment);
      const payer = payment.payload.payload.authorization.from;
      const transaction = outcome.txHash ?? "";
      if (outcome.status === "SETTLED" && outcome.txHash) {
        const row = { route: payment.route.name, asset: payment.requirements.asset, amount: BigInt(payment.requirements.amount) };
        const paymentResponse = await paymentResponseOf(row, payer, payment.resource.url, outcome.txHash, answer);
        await record(payment, outcome, JSON.stringify(answer), paymentResponse);
        return { paymentResponse, refusal: null };
      }
      const reason = outcome.reason ?? "settlement_failed";
      // A pending payment keeps its answer: a retry is served it once the chain shows the transfer.
      await record(payment, outcome, outcome.status === "PENDING" ? JSON.stringify(answer) : null, null);
      const paymentResponse = encodePaymentResponseHeader({ success: false, errorReason: reason, transaction, network: p.network });
      return { paymentResponse, refusal: outcome.status === "PENDING" ? pending(reason) : settlementFailed(reason) };
    },

    async release(payment) {
      try {
        // A payment already settled is never given back: its claim is left stale, for the next retry to be served.
        if (payment.settledTx) await takeOverClaim(p.db, payment, new Date(0));
        else await releaseX402Payment(p.db, payment);
      } catch {
        log(`[x402] payment ${payment.id} could not be released; it stays claimed`);
      }
      return payment.settledTx ? pending("payment_taken_answer_failed") : null;
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
    const txHash = isTxHash(result.transaction) ? result.transaction : null;
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

  /**
   * Records a settlement's end, trying the store three times (unrecorded, the claim would later be
   * recovered from the chain and served again); a store failure is logged, never answered (the payment
   * is already final).
   */
  async function record(payment: AdmittedPayment, outcome: SettlementRecord, answer: string | null, paymentResponse: string | null) {
    for (let attempt = 1; attempt <= 3; attempt++) {
      try {
        const recorded = await recordX402Settlement(p.db, payment, { ...outcome, settledAt: clock(), answer, paymentResponse });
        if (!recorded)
          log(`[x402] payment ${payment.id}: its claim was taken over as stale; this settlement (${outcome.status}) is not recorded`);
        return;
      } catch {
        if (attempt < 3) await pause(500 * attempt);
      }
    }
    log(`[x402] the settlement of payment ${payment.id} (${outcome.status}) could not be recorded`);
  }
}
