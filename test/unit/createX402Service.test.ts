import { decodePaymentResponseHeader, encodePaymentSignatureHeader } from "@x402/core/http";
import type { PaymentPayload, PaymentRequirements } from "@x402/core/types";
import {
  type EIP712SignedOffer,
  type EIP712SignedReceipt,
  extractOffersFromPaymentRequired,
  OFFER_RECEIPT,
  verifyOfferSignatureEIP712,
  verifyReceiptSignatureEIP712,
} from "@x402/extensions/offer-receipt";
import { PAYMENT_IDENTIFIER } from "@x402/extensions/payment-identifier";
import { type Hex, recoverTypedDataAddress } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { beforeEach, describe, expect, test, vi } from "vitest";
import type { Failure, Result } from "../../api/errors";
import { routes } from "../../api/routes/routeList";
import { type AppStore, createAppStore } from "../../api/store/createAppStore";
import { StoreNotReadyError } from "../../api/store/isStoreUnavailable";
import {
  claimX402Payment,
  findX402Payment,
  type PayerCommitment,
  recordX402Settlement,
  type X402PaymentRow,
} from "../../api/store/x402PaymentQueries";
import type { Admission, AdmittedPayment } from "../../api/x402/AdmittedPayment";
import { exampleOf } from "../../api/x402/bazaar/bazaarExample";
import type { ConfirmSettlement, ExpectedTransfer, SettlementConfirmation } from "../../api/x402/confirmSettlement";
import { paidRequestHash, payerKey as payerKeyOf, paymentId } from "../../api/x402/createX402Admission";
import { type CreateX402ServiceParameters, createX402Service } from "../../api/x402/createX402Service";
import {
  bodySha256,
  createX402Signer,
  paidAnswerDomain,
  paidAnswerMessage,
  paidAnswerTypes,
  type SignedPaidAnswer,
} from "../../api/x402/createX402Signer";
import type { PaidRoute } from "../../api/x402/PaidRoute";
import type { PaidAnswer } from "../../api/x402/paidAnswer";
import type { PendingSettlement, SettlementResolution } from "../../api/x402/resolvePendingSettlement";
import { FacilitatorUnavailableError } from "../../api/x402/X402Facilitator";
import { baseNetwork, baseUsdc } from "../../base/baseChain";
import { fileAppStore } from "../support/fileAppStore";
import {
  auditTerms,
  authorizationOf,
  facilitatorAnswers,
  offChainPayerChecks,
  type RecordedFacilitator,
  recordedFacilitator,
  testPayTo,
  txHashOf,
} from "../support/recordedFacilitator";
import { signedPayment } from "../support/signedPayment";

// Anvil's well-known development keys: the payer, a second payer, and the key offers and receipts are
// signed with. The payee is anvil's sixth account (no key needed).
const payerKey: Hex = "0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a";
const payer = privateKeyToAccount(payerKey).address;
const otherPayerKey: Hex = "0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6";
const signingKey: Hex = "0x47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a";
const payTo = testPayTo;

const route: PaidRoute = routes.audit;
const target = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";
const resource = { url: `http://127.0.0.1:42069/v1/audit/${target}`, path: `/v1/audit/${target}` };
const ours = auditTerms;
const answer: PaidAnswer = {
  status: 200,
  contentType: "application/json",
  body: '{"observationBlock":{"blockNumber":24410400},"capabilityScore":7}',
  headers: { "x-service-trust-level": "TRUSTED_PRIMARY" },
};

const t0 = new Date("2026-03-10T15:20:30.250Z");
let clockAt = t0.getTime();
const clock = () => new Date(clockAt);

const store = fileAppStore();
let facilitator: RecordedFacilitator;
/** What the chain says of each settlement transaction, as evidenceGradeSettlement would conclude (default CONFIRMED). */
const confirmations = new Map<Hex, SettlementConfirmation>();
const confirmed: { txHash: Hex; expected: ExpectedTransfer }[] = [];
const confirmSettlement: ConfirmSettlement = async (txHash, expected) => {
  confirmed.push({ txHash, expected });
  return confirmations.get(txHash) ?? "CONFIRMED";
};
/** What chainResolution concludes of a pending settlement, as a test sets it (default: still pending). */
let resolution: (pending: PendingSettlement) => Promise<SettlementResolution>;
const resolved: PendingSettlement[] = [];
const logs: string[] = [];
/** A store already closed: every query on it fails (made once, for the tests of a failing store). */
let closedStore: Promise<AppStore> | undefined;
const closedDb = () => {
  closedStore ??= (async () => {
    const closed = createAppStore({ kind: "pglite", directory: "memory://" });
    await closed.ready;
    await closed.close();
    return closed;
  })();
  return closedStore.then((closed) => closed.db);
};

beforeEach(() => {
  clockAt = t0.getTime();
  facilitator = recordedFacilitator();
  confirmations.clear();
  confirmed.length = 0;
  resolution = async () => ({ status: "PENDING" });
  resolved.length = 0;
  logs.length = 0;
});

/** The service under test over this file's store, signing with `signingKey`; retries are told at once. */
const service = (overrides: Partial<CreateX402ServiceParameters> = {}) =>
  createX402Service({
    db: store.db,
    storeReady: store.ready,
    facilitator,
    payTo,
    network: baseNetwork,
    confirmSettlement,
    resolvePending: (pending) => {
      resolved.push(pending);
      return resolution(pending);
    },
    signer: createX402Signer(signingKey),
    retentionSeconds: 3600,
    ...offChainPayerChecks,
    retryWaitMs: 0,
    clock,
    log: (message) => logs.push(message),
    ...overrides,
  });

/** A payment of our terms signed for real by `key`, with a payment-identifier id when one is given. */
async function payment(options: { key?: Hex; id?: string; terms?: Parameters<typeof signedPayment>[2] } = {}) {
  const { payload } = await signedPayment(ours, options.key ?? payerKey, options.terms);
  const withId =
    options.id === undefined
      ? payload
      : { ...payload, extensions: { [PAYMENT_IDENTIFIER]: { info: { required: false, id: options.id } } } };
  const authorization = authorizationOf(payload);
  return {
    header: encodePaymentSignatureHeader(withId as PaymentPayload),
    payload: withId,
    authorization,
    id: paymentId(ours, authorization),
  };
}

const refusal = (result: Result<unknown>): Failure => {
  if (result.ok) throw new Error(`admitted: ${JSON.stringify(result.value)}`);
  return result;
};
const admitted = (result: Result<Admission>): AdmittedPayment => {
  if (!result.ok || result.value.kind !== "PAY") throw new Error(`not admitted to pay: ${JSON.stringify(result)}`);
  return result.value.payment;
};
const replayed = (result: Result<Admission>) => {
  if (!result.ok || result.value.kind !== "REPLAY") throw new Error(`not a replay: ${JSON.stringify(result)}`);
  return result.value;
};
/** The receipt and paid answer PAYMENT-RESPONSE carries when a signer is configured. */
const signedParts = (paymentResponse: string) => {
  const info = decodePaymentResponseHeader(paymentResponse).extensions?.[OFFER_RECEIPT] as
    | { info: { receipt: EIP712SignedReceipt; paidAnswer: SignedPaidAnswer } }
    | undefined;
  if (!info) throw new Error("no signed receipt");
  return info.info;
};
const rowOf = async (id: string) => (await findX402Payment(store.db, id)) as X402PaymentRow;
const verifies = () => facilitator.calls.filter((c) => c.method === "verify").length;
const settles = () => facilitator.calls.filter((c) => c.method === "settle").length;
/** The refusal's challenge: the one PAYMENT-INVALID carries (x402's PaymentRequired). */
const challengeIn = (failure: Failure) => failure.details?.paymentRequired as { error?: string; accepts: PaymentRequirements[] };
const pendingRefusal = (reason: string) => ({
  ok: false,
  code: "PAYMENT_PENDING",
  message: "this payment's settlement is not known yet: retry the same payment (or payment-identifier id) later, and do not pay again",
  details: { reason, retryAfterSeconds: 2 },
});
const settlementFailure = (reason: string) => ({
  ok: false,
  code: "PAYMENT_SETTLEMENT_FAILED",
  message: `the payment could not be settled (${reason}); the answer is withheld and nothing was taken`,
  details: { reason },
});

/** A payment whose settlement stayed unknown (the facilitator's success, the chain not showing it yet). */
async function pendingPayment(x402 = service(), txKnown = true) {
  const p = await payment();
  const paid = admitted(await x402.admit(route, resource, p.header));
  const tx = txHashOf(p.authorization.nonce);
  if (txKnown) confirmations.set(tx, "UNCONFIRMED");
  else facilitator.answerSettle = () => Promise.reject(new FacilitatorUnavailableError("down"));
  await x402.settle(paid, answer);
  facilitator.answerSettle = recordedFacilitator().answerSettle;
  return { ...p, tx };
}

/**
 * Runs `body` with the service's pauses (a waiting retry's, a record's between attempts: the lengths given)
 * ended at once, each moving the faked Date by its length; the lengths asked for, in order. Any other timer
 * runs as usual, and only Date is faked, so the store keeps running for real.
 */
async function pausesOf(lengths: readonly number[], body: () => Promise<void>): Promise<number[]> {
  const asked: number[] = [];
  const realSetTimeout = globalThis.setTimeout;
  vi.useFakeTimers({ toFake: ["Date"] });
  const spy = vi.spyOn(globalThis, "setTimeout").mockImplementation(((run: () => void, ms?: number) => {
    if (ms === undefined || !lengths.includes(ms)) return realSetTimeout(run, ms);
    asked.push(ms);
    vi.setSystemTime(Date.now() + ms);
    return realSetTimeout(run, 0);
  }) as typeof setTimeout);
  try {
    await body();
    return asked;
  } finally {
    spy.mockRestore();
    vi.useRealTimers();
  }
}

/** Admits and settles a payment (the facilitator's default answers): its admitted payment and receipt. */
async function paidFor(x402 = service(), options: Parameters<typeof payment>[0] = {}) {
  const p = await payment(options);
  const paid = admitted(await x402.admit(route, resource, p.header));
  const outcome = await x402.settle(paid, answer);
  expect(outcome.refusal).toBeNull();
  return { ...p, paid, outcome };
}

describe("offers and challenges", () => {
  test("the challenge names the resource, our terms, optional payment ids, and an offer signed by our key", async () => {
    const signedAt = Date.now();
    const challenge = await service().challenge(route, resource);
    if (!challenge.ok) throw new Error(challenge.message);
    expect(challenge.value).toMatchObject({
      x402Version: 2,
      error: "payment_required",
      resource: { url: resource.url, description: route.summary, mimeType: "application/json" },
      accepts: [ours],
    });
    expect(challenge.value.extensions?.[PAYMENT_IDENTIFIER]).toMatchObject({ info: { required: false } });
    // Discovery names the method, the route's template and this request's parameters.
    expect(challenge.value.extensions?.bazaar).toMatchObject({
      routeTemplate: "/v1/audit/:address",
      info: { input: { method: "GET", pathParams: { address: target } } },
    });
    const [offer] = extractOffersFromPaymentRequired(challenge.value);
    const verified = await verifyOfferSignatureEIP712(offer as EIP712SignedOffer);
    expect(verified.signer).toBe(privateKeyToAccount(signingKey).address);
    expect(verified.payload).toMatchObject({ resourceUrl: resource.url, network: baseNetwork, asset: baseUsdc, payTo, amount: "20000" });
    // Valid for five minutes from its signing.
    const { validUntil } = verified.payload as { validUntil: number };
    expect(validUntil - Math.floor(signedAt / 1000)).toBeGreaterThanOrEqual(300);
    expect(validUntil - Math.floor(Date.now() / 1000)).toBeLessThanOrEqual(300);
  });

  test("without a signer nothing is signed: no offer in the challenge, no receipt in PAYMENT-RESPONSE", async () => {
    const x402 = service({ signer: null });
    expect(x402.signer).toBeNull();
    const challenge = await x402.challenge(route, resource);
    if (!challenge.ok) throw new Error(challenge.message);
    expect(challenge.value.extensions?.[OFFER_RECEIPT]).toBeUndefined();
    const { outcome, authorization } = await paidFor(x402);
    expect(decodePaymentResponseHeader(outcome.paymentResponse)).toEqual({
      success: true,
      transaction: txHashOf(authorization.nonce),
      network: baseNetwork,
      payer,
    });
    expect(logs).toEqual([]);
  });

  test("offerOf: the route's terms and its extensions at the discovery example's path", async () => {
    const x402 = service();
    const offer = await x402.offerOf(route);
    if (!offer.ok) throw new Error(offer.message);
    expect(offer.value.accepts).toEqual([ours]);
    expect(Object.keys(offer.value.extensions).sort()).toEqual(["bazaar", OFFER_RECEIPT, PAYMENT_IDENTIFIER].sort());
    expect(offer.value.extensions.bazaar).toMatchObject({
      routeTemplate: "/v1/audit/:address",
      info: { input: { method: "GET", pathParams: exampleOf(route).pathParams } },
    });
    expect(x402.facilitator).toBe(facilitator);
    expect(x402.signer?.address).toBe(privateKeyToAccount(signingKey).address);
  });

  test("terms are built once per route, after one question to the facilitator", async () => {
    const x402 = service();
    await x402.offerOf(route);
    await x402.challenge(route, resource);
    await x402.challenge(routes.gasFees, resource);
    expect(facilitator.calls.map((c) => c.method)).toEqual(["getSupported"]);
    const gas = await x402.offerOf(routes.gasFees);
    expect(gas.ok && gas.value.accepts[0]?.amount).toBe(String(routes.gasFees.x402PriceUsd * 1e6));
  });

  test("a facilitator that cannot be reached: PAYMENT_FACILITATOR_UNAVAILABLE, and it is asked again next time", async () => {
    facilitator.answerSupported = () => Promise.reject(new FacilitatorUnavailableError("the remote facilitator's supported failed"));
    const x402 = service();
    const down = {
      ok: false,
      code: "PAYMENT_FACILITATOR_UNAVAILABLE",
      message: "per-call payment cannot be offered now: the x402 facilitator cannot be reached",
    };
    expect(await x402.challenge(route, resource)).toEqual(down);
    expect(await x402.offerOf(route)).toEqual(down);
    expect(await x402.admit(route, resource, (await payment()).header)).toEqual(down);
    facilitator.answerSupported = facilitatorAnswers.supported;
    expect((await x402.challenge(route, resource)).ok).toBe(true);
    expect(facilitator.calls.filter((c) => c.method === "getSupported")).toHaveLength(4);
  });
});

describe("admission", () => {
  test("a valid payment is verified with our terms and claimed: its row holds the terms, ids and retention, never the payer", async () => {
    const p = await payment({ id: "pay_admission_0001" });
    const paid = admitted(await service().admit(route, resource, p.header));
    expect(paid).toEqual({ id: p.id, claimedAt: t0, route, resource, payload: p.payload, requirements: ours, settledTx: null });
    expect(facilitator.calls.at(-1)).toEqual({ method: "verify", payload: p.payload, requirements: ours });
    const row = await rowOf(p.id);
    expect(row).toEqual({
      id: p.id,
      route: route.name,
      network: baseNetwork,
      asset: baseUsdc,
      amount: 20000n,
      status: "CLAIMED",
      txHash: null,
      reason: null,
      claimedAt: t0,
      settledAt: null,
      paymentIdentifier: "pay_admission_0001",
      requestHash: paidRequestHash(route.name, resource.path, ours, payer),
      nonce: p.authorization.nonce,
      validBefore: BigInt(p.authorization.validBefore),
      retainedUntil: new Date(t0.getTime() + 3600 * 1000),
      answer: null,
      paymentResponse: null,
      payerKey: payerKeyOf(ours, payer),
    });
    expect(JSON.stringify(row, (_, v) => (typeof v === "bigint" ? String(v) : v)).toLowerCase()).not.toContain(
      payer.slice(2).toLowerCase(),
    );
  });

  test("refused before the facilitator: unreadable, other terms, or terms x402 does not match; each with its reason and a fresh challenge", async () => {
    const x402 = service();
    const half = { amount: "10000" };
    const otherTimeout = await payment();
    const echo = { ...otherTimeout.payload, accepted: { ...ours, maxTimeoutSeconds: 60 } } as PaymentPayload;
    const cases: [string, string][] = [
      ["not base64!", "payment_signature_not_base64"],
      [(await payment({ terms: half })).header, "amount_mismatch"],
      [(await payment({ terms: { payTo: payer } })).header, "pay_to_mismatch"],
      [encodePaymentSignatureHeader(echo), "payment_terms_mismatch"],
    ];
    for (const [header, reason] of cases) {
      const refused = refusal(await x402.admit(route, resource, header));
      expect(refused, reason).toMatchObject({
        code: "PAYMENT_INVALID",
        message: `the payment was refused (${reason}); pay with the challenge in PAYMENT-REQUIRED`,
        details: { reason },
      });
      expect(challengeIn(refused), reason).toMatchObject({ error: reason, accepts: [ours], resource: { url: resource.url } });
    }
    expect(verifies()).toBe(0);
  });

  test("a payment-identifier id that is not 16-128 letters, digits, - or _: PAYMENT_ID_INVALID, nothing verified or claimed", async () => {
    for (const id of ["short_id", "x".repeat(129), "has spaces in it!!"]) {
      const p = await payment({ id });
      expect(await service().admit(route, resource, p.header), id).toEqual({
        ok: false,
        code: "PAYMENT_ID_INVALID",
        message: "the payment-identifier id must be 16-128 letters, digits, '-' or '_'",
        details: { reason: "invalid_payment_identifier" },
      });
      expect(await findX402Payment(store.db, p.id)).toBeUndefined();
    }
    expect(verifies()).toBe(0);
    const longest = await payment({ id: "y".repeat(128) });
    expect(admitted(await service().admit(route, resource, longest.header)).id).toBe(longest.id);
  });

  test("the facilitator's refusal is PAYMENT_INVALID with its reason code (raw text becomes payment_invalid); nothing is claimed", async () => {
    const x402 = service();
    for (const [invalidReason, reason] of [
      ["invalid_exact_evm_signature", "invalid_exact_evm_signature"],
      ["execution reverted: 0x08c379a0 insufficient funds", "payment_invalid"],
      [undefined, "payment_invalid"],
    ] as const) {
      facilitator.answerVerify = () => ({ isValid: false, invalidReason, payer });
      const p = await payment();
      const refused = refusal(await x402.admit(route, resource, p.header));
      expect(refused, reason).toMatchObject({ code: "PAYMENT_INVALID", details: { reason } });
      expect(challengeIn(refused).error).toBe(reason);
      expect(await findX402Payment(store.db, p.id)).toBeUndefined();
    }
  });

  test("a facilitator that cannot be reached to verify: PAYMENT_FACILITATOR_UNAVAILABLE and no claim; any other throw is not hidden", async () => {
    const x402 = service();
    facilitator.answerVerify = () => Promise.reject(new FacilitatorUnavailableError("the chain cannot be reached"));
    const p = await payment();
    expect(await x402.admit(route, resource, p.header)).toEqual({
      ok: false,
      code: "PAYMENT_FACILITATOR_UNAVAILABLE",
      message: "the payment cannot be verified now: the x402 facilitator cannot be reached",
    });
    expect(await findX402Payment(store.db, p.id)).toBeUndefined();
    facilitator.answerVerify = () => Promise.reject(new TypeError("a bug"));
    await expect(x402.admit(route, resource, p.header)).rejects.toThrow("a bug");
  });

  test("the same authorization again: refused by what became of it (in progress, settled, failed), without the facilitator", async () => {
    const x402 = service();
    const inProgress = await payment();
    admitted(await x402.admit(route, resource, inProgress.header));
    const settled = await paidFor(x402);
    const failed = await payment();
    facilitator.answerSettle = () => facilitatorAnswers.refused("invalid_exact_evm_transaction_failed", payer);
    await x402.settle(admitted(await x402.admit(route, resource, failed.header)), answer);
    const before = verifies();
    for (const [p, reason] of [
      [inProgress, "payment_in_progress"],
      [settled, "payment_already_settled"],
      [failed, "payment_already_failed"],
    ] as const) {
      const refused = refusal(await x402.admit(route, resource, p.header));
      expect(refused, reason).toMatchObject({ code: "PAYMENT_INVALID", details: { reason } });
    }
    // Only a claim grows stale: a settled or failed payment is refused however long ago it was claimed.
    clockAt += 3_600_000;
    for (const [p, reason] of [
      [settled, "payment_already_settled"],
      [failed, "payment_already_failed"],
    ] as const) {
      expect(refusal(await x402.admit(route, resource, p.header)), reason).toMatchObject({ code: "PAYMENT_INVALID", details: { reason } });
    }
    expect(verifies()).toBe(before);
  });

  test("a store that could not be opened: the admission fails as the store's (a 503), before any claim", async () => {
    const storeReady = Promise.reject(new Error("migrations failed"));
    storeReady.catch(() => undefined);
    await expect(service({ storeReady }).admit(route, resource, (await payment()).header)).rejects.toBeInstanceOf(StoreNotReadyError);
  });

  test("concurrent copies of one payment: one claim, the others refused as in progress", async () => {
    const x402 = service();
    const p = await payment();
    const results = await Promise.all(Array.from({ length: 4 }, () => x402.admit(route, resource, p.header)));
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    for (const r of results.filter((r) => !r.ok))
      expect(r).toMatchObject({ code: "PAYMENT_INVALID", details: { reason: "payment_in_progress" } });
  });
  test("a claim lost to a copy whose row is gone by the time it is read: in progress; to one settled meanwhile: already settled", async () => {
    // The orders a race can take, set by the reads: the loser's first look finds no claim (the winner's is not
    // written yet), its claim then conflicts, and its read of the winner's row finds it given back (gone) or settled.
    const x402 = service();
    const p = await payment();
    const paid = admitted(await x402.admit(route, resource, p.header));
    /** A select that finds no row, whatever it is chained with. */
    const findsNothing: unknown = new Proxy(() => undefined, {
      get: (_, key) => (key === "then" ? (found: (rows: unknown[]) => void) => found([]) : () => findsNothing),
    });
    const racing = (winnerRow: "gone" | "read") => {
      let claimTried = false;
      return new Proxy(store.db, {
        get: (live, key) => {
          // The claim is an insert in a transaction (under the payer's lock).
          if (key === "insert" || key === "transaction") claimTried = true;
          if (key === "select" && (!claimTried || winnerRow === "gone")) return () => findsNothing;
          return Reflect.get(live, key);
        },
      });
    };
    expect(refusal(await service({ db: racing("gone") }).admit(route, resource, p.header))).toMatchObject({
      code: "PAYMENT_INVALID",
      details: { reason: "payment_in_progress" },
    });
    await x402.settle(paid, answer);
    expect(refusal(await service({ db: racing("read") }).admit(route, resource, p.header))).toMatchObject({
      code: "PAYMENT_INVALID",
      details: { reason: "payment_already_settled" },
    });
  });
});

describe("payment-identifier ids", () => {
  test("two payments under one id at once: one is claimed, the other is told it is pending", async () => {
    const x402 = service();
    const [a, b] = await Promise.all([payment({ id: "pay_two_at_once_0001" }), payment({ id: "pay_two_at_once_0001" })]);
    const results = await Promise.all([x402.admit(route, resource, a.header), x402.admit(route, resource, b.header)]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.find((r) => !r.ok)).toEqual(pendingRefusal("payment_in_progress"));
  });

  test("a retry under the same id (a new signature) for the same request is served the kept answer, after its signature is verified", async () => {
    const x402 = service();
    const first = await paidFor(x402, { id: "pay_retry_same_request" });
    const retry = await payment({ id: "pay_retry_same_request" });
    const before = verifies();
    expect(replayed(await x402.admit(route, resource, retry.header))).toEqual({
      kind: "REPLAY",
      answer,
      paymentResponse: first.outcome.paymentResponse,
    });
    expect(verifies()).toBe(before + 1);
    // The first payment itself again: its signature was verified when it was claimed.
    expect(replayed(await x402.admit(route, resource, first.header)).paymentResponse).toBe(first.outcome.paymentResponse);
    expect(verifies()).toBe(before + 1);
    expect(settles()).toBe(1);
    // Its own authorization was never claimed: it is still the payer's.
    expect(await findX402Payment(store.db, retry.id)).toBeUndefined();
  });

  test("a retry under the same id whose new signature the facilitator refuses is refused", async () => {
    const x402 = service();
    await paidFor(x402, { id: "pay_retry_bad_signature" });
    facilitator.answerVerify = (p) => facilitatorAnswers.invalid("invalid_exact_evm_signature", authorizationOf(p).from);
    const retry = await payment({ id: "pay_retry_bad_signature" });
    expect(refusal(await x402.admit(route, resource, retry.header))).toMatchObject({
      code: "PAYMENT_INVALID",
      details: { reason: "invalid_exact_evm_signature" },
    });
  });

  test("the same id for another request (another resource, or another payer): PAYMENT_ID_CONFLICT, nothing verified", async () => {
    const x402 = service();
    await paidFor(x402, { id: "pay_conflicting_id_01" });
    const before = verifies();
    const conflict = {
      ok: false,
      code: "PAYMENT_ID_CONFLICT",
      message: "this payment-identifier id was used for another request: use a new id for a new request",
      details: { reason: "payment_identifier_conflict" },
    };
    const other = await payment({ id: "pay_conflicting_id_01" });
    expect(await x402.admit(route, { url: `${resource.url}0`, path: `${resource.path}0` }, other.header)).toEqual(conflict);
    const otherPayer = await payment({ id: "pay_conflicting_id_01", key: otherPayerKey });
    expect(await x402.admit(route, resource, otherPayer.header)).toEqual(conflict);
    expect(verifies()).toBe(before);
  });

  test("a retry under an id whose payment is in progress is PAYMENT_PENDING; once it failed, the failure", async () => {
    const x402 = service();
    const first = await payment({ id: "pay_retry_in_progress" });
    const paid = admitted(await x402.admit(route, resource, first.header));
    const retry = await payment({ id: "pay_retry_in_progress" });
    expect(await x402.admit(route, resource, retry.header)).toEqual(pendingRefusal("payment_in_progress"));
    facilitator.answerSettle = () => facilitatorAnswers.refused("invalid_exact_evm_insufficient_balance", payer);
    await x402.settle(paid, answer);
    expect(await x402.admit(route, resource, retry.header)).toEqual(settlementFailure("invalid_exact_evm_insufficient_balance"));
  });

  test("a retry waits for the payment in progress and is served its answer once it settles", async () => {
    // The first request settles only once the retry has read the claim in progress (its first read after its verification).
    let retryVerified = false;
    let retryRead = () => {};
    const retryReading = new Promise<void>((read) => {
      retryRead = read;
    });
    const db = new Proxy(store.db, {
      get: (live, key) => {
        if (key === "select" && retryVerified) retryRead();
        return Reflect.get(live, key);
      },
    });
    const x402 = service({ db, retryWaitMs: 60_000 });
    const first = await payment({ id: "pay_retry_waits_for_it" });
    const paid = admitted(await x402.admit(route, resource, first.header));
    facilitator.answerVerify = (payload) => {
      retryVerified = true;
      return facilitatorAnswers.valid(authorizationOf(payload).from);
    };
    const settled = facilitator.answerSettle;
    facilitator.answerSettle = async (payload, requirements) => {
      await retryReading;
      return settled(payload, requirements);
    };
    const retry = x402.admit(route, resource, (await payment({ id: "pay_retry_waits_for_it" })).header);
    const { paymentResponse } = await x402.settle(paid, answer);
    expect(replayed(await retry)).toEqual({ kind: "REPLAY", answer, paymentResponse });
  });

  test("by default a retry waits 15 s for the payment in progress before it is told PAYMENT_PENDING", async () => {
    // A store of its own on PGlite, whose queries use no timers: a Postgres pool's idle timers would run on the faked ones.
    const own = createAppStore({ kind: "pglite", directory: "memory://" });
    await own.ready;
    const x402 = service({ db: own.db, storeReady: own.ready, retryWaitMs: undefined });
    admitted(await x402.admit(route, resource, (await payment({ id: "pay_default_wait" })).header));
    const retry = await payment({ id: "pay_default_wait" });
    // Only the wait's own timers and Date are faked: the store keeps running for real.
    vi.useFakeTimers({ toFake: ["setTimeout", "Date"] });
    try {
      let answer: Result<Admission> | undefined;
      x402.admit(route, resource, retry.header).then((a) => {
        answer = a;
      });
      // Faked time moves only here, 100 ms a step (a busy machine may let a few steps pass before the wait begins).
      let waitedMs = 0;
      while (answer === undefined && waitedMs < 20_000) {
        await new Promise((turn) => setImmediate(turn));
        await vi.advanceTimersByTimeAsync(100);
        waitedMs += 100;
      }
      expect(answer).toEqual(pendingRefusal("payment_in_progress"));
      expect(waitedMs).toBeGreaterThanOrEqual(15_000);
    } finally {
      vi.useRealTimers();
      await own.close();
    }
  });

  test("a payment released (its answer was not a 2xx) frees its id: the retry is a new payment", async () => {
    const x402 = service();
    const first = await payment({ id: "pay_released_then_new" });
    expect(await x402.release(admitted(await x402.admit(route, resource, first.header)))).toBeNull();
    const retry = await payment({ id: "pay_released_then_new" });
    expect(admitted(await x402.admit(route, resource, retry.header)).id).toBe(retry.id);
  });

  test("a retry whose first request's row is gone while it waits: PAYMENT_PENDING, retry it", async () => {
    const x402 = service();
    const first = await payment({ id: "pay_first_request_gone" });
    const paid = admitted(await x402.admit(route, resource, first.header));
    // The first request gives its payment back while the retry's signature is being verified.
    facilitator.answerVerify = async () => {
      await x402.release(paid);
      return facilitatorAnswers.valid(payer);
    };
    expect(await x402.admit(route, resource, (await payment({ id: "pay_first_request_gone" })).header)).toEqual({
      ok: false,
      code: "PAYMENT_PENDING",
      message: "the payment's first request was not answered: retry it",
      details: { retryAfterSeconds: 1 },
    });
  });
});

describe("settlement", () => {
  test("settled and confirmed on the chain: SETTLED with the transfer, the answer kept, a signed receipt and paid answer", async () => {
    const x402 = service();
    const p = await payment();
    const paid = admitted(await x402.admit(route, resource, p.header));
    clockAt += 5_000;
    const { paymentResponse, refusal } = await x402.settle(paid, answer);
    expect(refusal).toBeNull();
    const tx = txHashOf(p.authorization.nonce);
    expect(confirmed).toEqual([{ txHash: tx, expected: { from: payer, to: payTo, amount: 20000n } }]);
    expect(facilitator.calls.at(-1)).toEqual({ method: "settle", payload: p.payload, requirements: ours });
    const response = decodePaymentResponseHeader(paymentResponse);
    expect(response).toMatchObject({ success: true, transaction: tx, network: baseNetwork, payer });
    const { receipt, paidAnswer } = signedParts(paymentResponse);
    const signer = privateKeyToAccount(signingKey).address;
    const verified = await verifyReceiptSignatureEIP712(receipt);
    expect(verified.signer).toBe(signer);
    expect(verified.payload).toMatchObject({ resourceUrl: resource.url, payer, network: baseNetwork, transaction: tx });
    expect(paidAnswer.payload).toMatchObject({
      route: route.name,
      resourceUrl: resource.url,
      network: baseNetwork,
      asset: baseUsdc,
      payTo,
      amount: "20000",
      transaction: tx,
      bodySha256: bodySha256(answer.body),
      observationBlock: "24410400",
    });
    const message = paidAnswerMessage(paidAnswer.payload);
    expect(
      await recoverTypedDataAddress({
        domain: paidAnswerDomain,
        types: paidAnswerTypes,
        primaryType: "PaidAnswer",
        message,
        signature: paidAnswer.signature,
      }),
    ).toBe(signer);
    expect(await rowOf(p.id)).toMatchObject({
      status: "SETTLED",
      txHash: tx,
      reason: null,
      claimedAt: t0,
      settledAt: new Date(t0.getTime() + 5_000),
      answer: JSON.stringify(answer),
      paymentResponse,
    });
  });

  test("an answer naming no block is signed at block 0; a receipt that cannot be signed is logged and the answer served without one", async () => {
    const unobserved = { ...answer, body: '{"fees":[]}' };
    const x402 = service();
    const paid = admitted(await x402.admit(route, resource, (await payment()).header));
    expect(signedParts((await x402.settle(paid, unobserved)).paymentResponse).paidAnswer.payload.observationBlock).toBe("0");

    const broken = createX402Signer(signingKey);
    broken.issuer = { ...broken.issuer, issueReceipt: () => Promise.reject(new Error("no key")) };
    const unsigned = service({ signer: broken });
    const p = await payment();
    const { paymentResponse, refusal } = await unsigned.settle(admitted(await unsigned.admit(route, resource, p.header)), answer);
    expect(refusal).toBeNull();
    expect(decodePaymentResponseHeader(paymentResponse)).toEqual({
      success: true,
      transaction: txHashOf(p.authorization.nonce),
      network: baseNetwork,
      payer,
    });
    expect(logs).toEqual(["[x402] a receipt could not be signed; the answer is served without one"]);
  });

  /** Settles one payment whose facilitator answers `settle`, with the chain saying `chain`: the outcome and the row. */
  async function settledWith(settle: RecordedFacilitator["answerSettle"], chain?: SettlementConfirmation) {
    const x402 = service();
    const p = await payment();
    const paid = admitted(await x402.admit(route, resource, p.header));
    facilitator.answerSettle = settle;
    if (chain) confirmations.set(txHashOf(p.authorization.nonce), chain);
    const outcome = await x402.settle(paid, answer);
    return {
      outcome,
      row: await rowOf(p.id),
      tx: txHashOf(p.authorization.nonce),
      response: decodePaymentResponseHeader(outcome.paymentResponse),
    };
  }

  test("the chain contradicts the facilitator: FAILED settlement_not_on_chain, the answer withheld, its transaction kept", async () => {
    const { outcome, row, tx, response } = await settledWith(
      (p) => facilitatorAnswers.settled(txHashOf(authorizationOf(p).nonce), payer),
      "CONTRADICTED",
    );
    expect(outcome.refusal).toEqual(settlementFailure("settlement_not_on_chain"));
    expect(response).toEqual({ success: false, errorReason: "settlement_not_on_chain", transaction: tx, network: baseNetwork });
    expect(row).toMatchObject({
      status: "FAILED",
      reason: "settlement_not_on_chain",
      txHash: tx,
      settledAt: t0,
      answer: null,
      paymentResponse: null,
    });
  });

  test("the chain does not show it yet: PENDING settlement_unconfirmed, the answer kept for the retry that finds it", async () => {
    const { outcome, row, tx, response } = await settledWith(
      (p) => facilitatorAnswers.settled(txHashOf(authorizationOf(p).nonce), payer),
      "UNCONFIRMED",
    );
    expect(outcome.refusal).toEqual(pendingRefusal("settlement_unconfirmed"));
    expect(response).toEqual({ success: false, errorReason: "settlement_unconfirmed", transaction: tx, network: baseNetwork });
    expect(row).toMatchObject({
      status: "PENDING",
      reason: "settlement_unconfirmed",
      txHash: tx,
      answer: JSON.stringify(answer),
      paymentResponse: null,
    });
  });

  test("the facilitator's success without a transaction hash is not believed: PENDING, nothing to confirm", async () => {
    const hash = txHashOf("not quite a hash");
    for (const transaction of ["0x1234", `${hash}00`, `0${hash}`]) {
      const { outcome, row } = await settledWith(() => ({ success: true, transaction, network: baseNetwork, payer }));
      expect(outcome.refusal, transaction).toEqual(pendingRefusal("settlement_unconfirmed"));
      expect(row, transaction).toMatchObject({ status: "PENDING", reason: "settlement_unconfirmed", txHash: null });
    }
    expect(confirmed).toEqual([]);
  });

  test("refused by the facilitator: FAILED with its reason code (raw text becomes settlement_failed), no transaction", async () => {
    const refused = await settledWith(() => facilitatorAnswers.refused("invalid_exact_evm_transaction_failed", payer));
    expect(refused.outcome.refusal).toEqual(settlementFailure("invalid_exact_evm_transaction_failed"));
    expect(refused.response).toEqual({
      success: false,
      errorReason: "invalid_exact_evm_transaction_failed",
      transaction: "",
      network: baseNetwork,
    });
    expect(refused.row).toMatchObject({ status: "FAILED", reason: "invalid_exact_evm_transaction_failed", txHash: null, answer: null });
    const raw = await settledWith(() => facilitatorAnswers.refused("Transaction reverted 0xdeadbeef", payer));
    expect(raw.outcome.refusal).toEqual(settlementFailure("settlement_failed"));
    expect(raw.row).toMatchObject({ status: "FAILED", reason: "settlement_failed" });
  });

  test("broadcast but unanswered (settlement_pending, asked twice by x402): PENDING with the broadcast's hash", async () => {
    const { outcome, row, tx } = await settledWith((p) => facilitatorAnswers.pending(txHashOf(authorizationOf(p).nonce), payer));
    expect(outcome.refusal).toEqual(pendingRefusal("settlement_pending"));
    expect(row).toMatchObject({ status: "PENDING", reason: "settlement_pending", txHash: tx, answer: JSON.stringify(answer) });
    expect(settles()).toBe(2);
  });

  test("a facilitator that cannot be reached to settle: PENDING settlement_pending (it may have broadcast), no transaction", async () => {
    const { outcome, row, response } = await settledWith(() =>
      Promise.reject(new FacilitatorUnavailableError("the remote facilitator's settle failed")),
    );
    expect(outcome.refusal).toEqual(pendingRefusal("settlement_pending"));
    expect(response).toEqual({ success: false, errorReason: "settlement_pending", transaction: "", network: baseNetwork });
    expect(row).toMatchObject({ status: "PENDING", reason: "settlement_pending", txHash: null, answer: JSON.stringify(answer) });
  });

  test("a claim taken over while its request was served: its late settlement is not recorded, and says so", async () => {
    const x402 = service();
    const p = await payment();
    const paid = admitted(await x402.admit(route, resource, p.header));
    await service({ clock: () => new Date(t0.getTime() + 1) }).release({ ...paid, settledTx: txHashOf("other") });
    await x402.settle(paid, answer);
    expect(await rowOf(p.id)).toMatchObject({ status: "CLAIMED", claimedAt: new Date(0) });
    expect(logs).toEqual([`[x402] payment ${p.id}: its claim was taken over as stale; this settlement (SETTLED) is not recorded`]);
  });
});

test("a settlement the store cannot record is tried three times, 0.5 s then 1 s apart, then logged; the answer is still served", async () => {
  const closed = await closedDb();
  let updates = 0;
  // Only updates fail: the record of a settlement is the one update a settlement makes.
  const db = new Proxy(store.db, {
    get: (live, key) => {
      if (key !== "update") return Reflect.get(live, key);
      updates++;
      return closed.update.bind(closed);
    },
  });
  const x402 = service({ db });
  const p = await payment();
  const paid = admitted(await x402.admit(route, resource, p.header));
  updates = 0;
  logs.length = 0;
  // 0.5 s after the first failure, 1 s after the second, and no wait after the last.
  const pauses = await pausesOf([250, 500, 1_000, 1_500], async () => {
    expect((await x402.settle(paid, answer)).refusal).toBeNull();
  });
  expect(pauses).toEqual([500, 1_000]);
  expect(updates).toBe(3);
  expect(logs).toEqual([`[x402] the settlement of payment ${p.id} (SETTLED) could not be recorded`]);
  expect(await rowOf(p.id)).toMatchObject({ status: "CLAIMED" });
});

describe("release", () => {
  test("a payment given back is deleted and can be used again; one already taken stays claimed (left stale) and its answer is PAYMENT_PENDING", async () => {
    const x402 = service();
    const p = await payment();
    expect(await x402.release(admitted(await x402.admit(route, resource, p.header)))).toBeNull();
    expect(await findX402Payment(store.db, p.id)).toBeUndefined();
    const again = admitted(await x402.admit(route, resource, p.header));
    expect(await x402.release({ ...again, settledTx: txHashOf("taken") })).toEqual(pendingRefusal("payment_taken_answer_failed"));
    expect(await rowOf(p.id)).toMatchObject({ status: "CLAIMED", claimedAt: new Date(0), txHash: null });
  });

  test("a claim that is no longer this request's (taken over) is not released", async () => {
    const x402 = service();
    const p = await payment();
    const paid = admitted(await x402.admit(route, resource, p.header));
    await x402.release({ ...paid, claimedAt: new Date(t0.getTime() - 1) });
    expect(await rowOf(p.id)).toMatchObject({ status: "CLAIMED", claimedAt: t0 });
  });

  test("a store that fails is logged: the payment stays claimed", async () => {
    const x402 = service({ db: await closedDb() });
    const paid = { id: "some-payment", claimedAt: t0, route, resource, payload: {} as never, requirements: ours };
    expect(await x402.release({ ...paid, settledTx: null })).toBeNull();
    expect(await x402.release({ ...paid, settledTx: txHashOf("taken") })).toEqual(pendingRefusal("payment_taken_answer_failed"));
    expect(logs).toEqual([
      "[x402] payment some-payment could not be released; it stays claimed",
      "[x402] payment some-payment could not be released; it stays claimed",
    ]);
  });
});

describe("pending settlements, resolved from the chain on retry", () => {
  test("settled on the chain: the retry is served the kept answer with a signed receipt; the row is SETTLED", async () => {
    const x402 = service();
    const p = await pendingPayment(x402);
    resolution = async () => ({ status: "SETTLED", txHash: p.tx });
    clockAt += 30_000;
    const replay = replayed(await x402.admit(route, resource, p.header));
    expect(resolved).toEqual([
      {
        from: payer,
        to: payTo,
        amount: 20000n,
        nonce: p.authorization.nonce,
        validBefore: BigInt(p.authorization.validBefore),
        txHash: p.tx,
      },
    ]);
    expect(replay.answer).toEqual(answer);
    const response = decodePaymentResponseHeader(replay.paymentResponse);
    expect(response).toMatchObject({ success: true, transaction: p.tx, payer });
    expect((await verifyReceiptSignatureEIP712(signedParts(replay.paymentResponse).receipt)).payload).toMatchObject({ transaction: p.tx });
    expect(await rowOf(p.id)).toMatchObject({
      status: "SETTLED",
      txHash: p.tx,
      reason: null,
      settledAt: new Date(t0.getTime() + 30_000),
      paymentResponse: replay.paymentResponse,
      answer: JSON.stringify(answer),
    });
    expect(settles()).toBe(1);
  });

  test("an unused authorization past its validity: FAILED, nothing was taken, the answer dropped", async () => {
    const x402 = service();
    const p = await pendingPayment(x402, false);
    resolution = async () => ({ status: "FAILED", reason: "authorization_expired_unused" });
    expect(await x402.admit(route, resource, p.header)).toEqual(settlementFailure("authorization_expired_unused"));
    expect(resolved[0]?.txHash).toBeNull();
    expect(await rowOf(p.id)).toMatchObject({
      status: "FAILED",
      reason: "authorization_expired_unused",
      txHash: null,
      settledAt: t0,
      answer: null,
    });
  });

  test("still unknown, or the chain cannot be read: PAYMENT_PENDING with the recorded reason", async () => {
    const x402 = service();
    const p = await pendingPayment(x402);
    expect(await x402.admit(route, resource, p.header)).toEqual(pendingRefusal("settlement_unconfirmed"));
    resolution = () => Promise.reject(new Error("providers down"));
    expect(await x402.admit(route, resource, p.header)).toEqual(pendingRefusal("settlement_unconfirmed"));
    expect(logs).toEqual([`[x402] payment ${p.id}: its settlement could not be read from the chain`]);
    expect(await rowOf(p.id)).toMatchObject({ status: "PENDING" });
  });

  test("a retry of the same authorization for another resource is refused as in progress, not resolved", async () => {
    const x402 = service();
    const p = await pendingPayment(x402);
    const refused = refusal(await x402.admit(route, { url: `${resource.url}0`, path: `${resource.path}0` }, p.header));
    expect(refused).toMatchObject({ code: "PAYMENT_INVALID", details: { reason: "payment_in_progress" } });
    expect(resolved).toEqual([]);
  });

  test("a pending row without the authorization's nonce cannot be resolved: it stays pending without asking the chain", async () => {
    const x402 = service();
    const p = await payment();
    const requestHash = paidRequestHash(route.name, resource.path, ours, payer);
    const claim = { id: p.id, route: route.name, network: baseNetwork, asset: baseUsdc, amount: 20000n, claimedAt: t0, requestHash };
    expect(await claimX402Payment(store.db, claim)).toBe(true);
    await recordX402Settlement(store.db, claim, { status: "PENDING", txHash: null, reason: null, settledAt: t0, answer: "{}" });
    expect(await x402.admit(route, resource, p.header)).toEqual(pendingRefusal("settlement_pending"));
    // One of the two is not enough either.
    for (const part of [{ nonce: p.authorization.nonce }, { validBefore: BigInt(p.authorization.validBefore) }]) {
      const q = await payment();
      const partial = { ...claim, id: q.id, ...part };
      expect(await claimX402Payment(store.db, partial)).toBe(true);
      await recordX402Settlement(store.db, partial, { status: "PENDING", txHash: null, reason: null, settledAt: t0, answer: "{}" });
      expect(await x402.admit(route, resource, q.header), Object.keys(part).join()).toEqual(pendingRefusal("settlement_pending"));
    }
    expect(resolved).toEqual([]);
  });
});

describe("a retry of a pending payment proves its payer's signature", () => {
  test("a signature the check refuses: invalid_exact_evm_signature, nothing resolved; a check that cannot read the chain: PAYMENT_FACILITATOR_UNAVAILABLE", async () => {
    let check: () => Promise<boolean> = async () => true;
    const x402 = service({ checkSignature: () => check() });
    const p = await payment({ key: generatePrivateKey() });
    confirmations.set(txHashOf(p.authorization.nonce), "UNCONFIRMED");
    await x402.settle(admitted(await x402.admit(route, resource, p.header)), answer);
    check = async () => false;
    const refused = refusal(await x402.admit(route, resource, p.header));
    expect(refused).toMatchObject({ code: "PAYMENT_INVALID", details: { reason: "invalid_exact_evm_signature" } });
    check = () => Promise.reject(new Error("providers down"));
    expect(await x402.admit(route, resource, p.header)).toEqual({
      ok: false,
      code: "PAYMENT_FACILITATOR_UNAVAILABLE",
      message: "the payment cannot be verified now: the chain cannot be read",
    });
    expect(resolved).toEqual([]);
    check = async () => true;
    expect(await x402.admit(route, resource, p.header)).toEqual(pendingRefusal("settlement_unconfirmed"));
    expect(resolved).toHaveLength(1);
  });
});

describe("a payer's balance bounds its payments in flight", () => {
  const sum = (commitments: PayerCommitment[]) => commitments.reduce((total, c) => total + c.amount, 0n);

  test("a balance that cannot be read: PAYMENT_FACILITATOR_UNAVAILABLE, nothing claimed", async () => {
    const x402 = service({ readPayerFunds: () => Promise.reject(new Error("providers down")) });
    const p = await payment({ key: generatePrivateKey() });
    expect(await x402.admit(route, resource, p.header)).toEqual({
      ok: false,
      code: "PAYMENT_FACILITATOR_UNAVAILABLE",
      message: "the payment cannot be verified now: the payer's balance cannot be read",
    });
    expect(await findX402Payment(store.db, p.id)).toBeUndefined();
  });

  test("what the payer's other payments commit counts: one settled within settledInBalanceSeconds is given to the read, and a payment past the balance is refused payer_balance_committed", async () => {
    const key = generatePrivateKey();
    const given: (readonly PayerCommitment[])[] = [];
    let balance = 40_000n;
    const x402 = service({
      readPayerFunds: async (_from, commitments) => {
        given.push(commitments);
        return { balance, blockTime: clock(), committed: sum };
      },
    });
    const first = await paidFor(x402, { key });
    expect((await rowOf(first.id)).status).toBe("SETTLED");
    clockAt += 59_000;
    balance = 20_000n;
    const second = await payment({ key });
    expect(refusal(await x402.admit(route, resource, second.header))).toMatchObject({
      code: "PAYMENT_INVALID",
      details: { reason: "payer_balance_committed" },
    });
    expect(given.map((commitments) => commitments.map((c) => [c.id, c.status]))).toEqual([[], [[first.id, "SETTLED"]]]);
    expect(await findX402Payment(store.db, second.id)).toBeUndefined();
    // Twice its amount covers both.
    balance = 40_000n;
    admitted(await x402.admit(route, resource, second.header));
  });

  test("a chain clock behind ours: the payer's settlements since the read block's window are given to the read, so its own used payments leave the sum", async () => {
    const key = generatePrivateKey();
    const given: string[] = [];
    // The chain: 20,000 left after the first payment, whose authorization it shows used; its clock 2 minutes behind ours.
    const x402 = service({
      readPayerFunds: async (_from, commitments) => {
        given.push(...commitments.map((c) => c.id));
        return {
          balance: 20_000n,
          blockTime: new Date(clock().getTime() - 120_000),
          committed: (cs) => sum(cs.filter((c) => !given.includes(c.id))),
        };
      },
    });
    const first = await paidFor(x402, { key });
    expect((await rowOf(first.id)).status).toBe("SETTLED");
    // 90 s later by our clock: past the 60 s window by our clock, inside it by the chain's.
    clockAt += 90_000;
    admitted(await x402.admit(route, resource, (await payment({ key })).header));
    expect(given).toContain(first.id);
  });

  test("a balance read at an older block counts what settled after that block, not only in the last minute", async () => {
    const key = generatePrivateKey();
    const x402 = service({
      readPayerFunds: async () => ({ balance: 20_000n, blockTime: new Date(t0.getTime() - 600_000), committed: sum }),
    });
    const settled = {
      route: route.name,
      network: baseNetwork,
      asset: baseUsdc,
      amount: 20_000n,
      payerKey: payerKeyOf(ours, privateKeyToAccount(key).address),
    };
    const claim = { id: "settled-five-minutes-ago", claimedAt: new Date(t0.getTime() - 300_000) };
    expect(await claimX402Payment(store.db, { ...settled, ...claim })).toBe(true);
    await recordX402Settlement(store.db, claim, { status: "SETTLED", txHash: null, reason: null, settledAt: claim.claimedAt });
    expect(refusal(await x402.admit(route, resource, (await payment({ key })).header))).toMatchObject({
      details: { reason: "payer_balance_committed" },
    });
  });
});

describe("stale claims (a process died between its claim and its record)", () => {
  const staleAfterMs = 120_000;

  test("younger than staleClaimSeconds the claim is in progress; at that age, used on the chain, the retry takes it over for the transfer made", async () => {
    const x402 = service();
    const p = await payment();
    admitted(await x402.admit(route, resource, p.header));
    const tx = txHashOf(`settled ${p.authorization.nonce}`);
    resolution = async () => ({ status: "SETTLED", txHash: tx });
    clockAt = t0.getTime() + staleAfterMs - 1;
    expect(refusal(await x402.admit(route, resource, p.header))).toMatchObject({ details: { reason: "payment_in_progress" } });
    expect(resolved).toEqual([]);
    clockAt = t0.getTime() + staleAfterMs;
    const takenOver = admitted(await x402.admit(route, resource, p.header));
    expect(takenOver).toMatchObject({ id: p.id, claimedAt: clock(), settledTx: tx, requirements: ours });
    expect(resolved[0]).toMatchObject({ txHash: null, nonce: p.authorization.nonce });
    expect(await rowOf(p.id)).toMatchObject({ status: "CLAIMED", claimedAt: clock(), txHash: tx });
    expect(logs).toEqual([
      `[x402] payment ${p.id}: a claim left by a process that died is served by this request, for the transfer already made`,
    ]);
    // Served for the transfer already made: settled without the facilitator, and a retry of it replays.
    const { paymentResponse, refusal: none } = await x402.settle(takenOver, answer);
    expect(none).toBeNull();
    expect(settles()).toBe(0);
    expect(decodePaymentResponseHeader(paymentResponse)).toMatchObject({ success: true, transaction: tx });
    expect(await rowOf(p.id)).toMatchObject({ status: "SETTLED", reason: "recovered_claim", txHash: tx });
    expect(replayed(await x402.admit(route, resource, p.header)).answer).toEqual(answer);
  });

  test("a shorter staleClaimSeconds is honoured", async () => {
    const x402 = service({ staleClaimSeconds: 10 });
    const p = await payment();
    admitted(await x402.admit(route, resource, p.header));
    resolution = async () => ({ status: "SETTLED", txHash: txHashOf("short") });
    clockAt = t0.getTime() + 10_000;
    expect(admitted(await x402.admit(route, resource, p.header)).settledTx).toBe(txHashOf("short"));
  });

  test("stale and unused past its validity: FAILED, recorded; stale and still unknown: PAYMENT_PENDING", async () => {
    const x402 = service();
    const unused = await payment();
    const unknown = await payment();
    admitted(await x402.admit(route, resource, unused.header));
    admitted(await x402.admit(route, resource, unknown.header));
    clockAt = t0.getTime() + staleAfterMs;
    resolution = async () => ({ status: "FAILED", reason: "authorization_expired_unused" });
    expect(await x402.admit(route, resource, unused.header)).toEqual(settlementFailure("authorization_expired_unused"));
    expect(await rowOf(unused.id)).toMatchObject({
      status: "FAILED",
      reason: "authorization_expired_unused",
      txHash: null,
      settledAt: clock(),
    });
    resolution = async () => ({ status: "PENDING" });
    expect(await x402.admit(route, resource, unknown.header)).toEqual(pendingRefusal("payment_in_progress"));
    expect(await rowOf(unknown.id)).toMatchObject({ status: "CLAIMED", claimedAt: t0 });
  });

  test("two retries race for a stale claim: one takes it over, the other is told it is pending", async () => {
    const x402 = service();
    const p = await payment();
    admitted(await x402.admit(route, resource, p.header));
    clockAt = t0.getTime() + staleAfterMs;
    resolution = async () => ({ status: "SETTLED", txHash: txHashOf("race") });
    const results = await Promise.all([x402.admit(route, resource, p.header), x402.admit(route, resource, p.header)]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.find((r) => !r.ok)).toEqual(pendingRefusal("payment_in_progress"));
  });

  test("a recovered claim whose answer is no longer kept: refused as settled", async () => {
    const x402 = service();
    const p = await payment();
    admitted(await x402.admit(route, resource, p.header));
    clockAt = t0.getTime() + staleAfterMs;
    resolution = async () => ({ status: "SETTLED", txHash: txHashOf("forgotten") });
    await x402.settle(admitted(await x402.admit(route, resource, p.header)), answer);
    // A new process, past the retention: its first admission forgets the kept answers.
    clockAt += 3600 * 1000;
    const later = service();
    await later.admit(route, resource, (await payment()).header);
    expect(await later.admit(route, resource, p.header)).toEqual({
      ok: false,
      code: "PAYMENT_INVALID",
      message: "the payment was settled and its answer is no longer kept",
      details: { reason: "payment_already_settled" },
    });
  });
});

describe("how often a waiting retry reads", () => {
  test("a claim in progress is read again every 100 ms until the wait ends, at retryWaitMs exactly", async () => {
    const x402 = service({ retryWaitMs: 3_000 });
    admitted(await x402.admit(route, resource, (await payment({ id: "pay_read_every_100_ms" })).header));
    const retry = await payment({ id: "pay_read_every_100_ms" });
    const pauses = await pausesOf([100, 1_000], async () => {
      expect(await x402.admit(route, resource, retry.header)).toEqual(pendingRefusal("payment_in_progress"));
    });
    expect(pauses).toEqual(Array(30).fill(100));
  });

  test("a settlement still unknown is asked of the chain once a second, as is a stale claim", async () => {
    const x402 = service({ retryWaitMs: 3_000 });
    const p = await pendingPayment(x402);
    const pending = await pausesOf([100, 1_000], async () => {
      expect(await x402.admit(route, resource, p.header)).toEqual(pendingRefusal("settlement_unconfirmed"));
    });
    expect(pending).toEqual([1_000, 1_000, 1_000]);
    expect(resolved).toHaveLength(4);

    const claimed = await payment();
    admitted(await x402.admit(route, resource, claimed.header));
    clockAt += 120_000;
    resolved.length = 0;
    const stale = await pausesOf([100, 1_000], async () => {
      expect(await x402.admit(route, resource, claimed.header)).toEqual(pendingRefusal("payment_in_progress"));
    });
    expect(stale).toEqual([1_000, 1_000, 1_000]);
    expect(resolved).toHaveLength(4);
  });
});

describe("retention", () => {
  test("past retention an id is forgotten (a retry under it is a new payment), also within the minute of the last pass", async () => {
    const x402 = service();
    const first = await paidFor(x402, { id: "pay_retained_for_an_hour" });
    const kept = await payment({ id: "pay_retained_for_an_hour" });
    expect(replayed(await x402.admit(route, resource, kept.header)).paymentResponse).toBe(first.outcome.paymentResponse);
    clockAt = t0.getTime() + 3600 * 1000 + 1;
    // This process's pass ran at its first admission (t0), not again within the minute: the id is forgotten
    // where it is found, whether or not a pass has reached it (on Postgres the pass runs beside the request).
    const retry = await payment({ id: "pay_retained_for_an_hour" });
    expect(admitted(await x402.admit(route, resource, retry.header)).id).toBe(retry.id);
    expect(await rowOf(first.id)).toMatchObject({ status: "SETTLED", paymentIdentifier: null, answer: null, paymentResponse: null });
  });

  test("the pass that forgets runs at most once a minute per process, beside an admission of a new payment", async () => {
    let updates = 0;
    // Forgetting is the one update an admission of a new payment makes.
    const db = new Proxy(store.db, {
      get: (live, key) => {
        if (key === "update") updates++;
        return Reflect.get(live, key);
      },
    });
    const x402 = service({ db });
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      const passesAt = async (ms: number) => {
        vi.setSystemTime(t0.getTime() + ms);
        admitted(await x402.admit(route, resource, (await payment()).header));
        return updates;
      };
      expect(await passesAt(0)).toBe(1);
      expect(await passesAt(59_999)).toBe(1);
      expect(await passesAt(60_000)).toBe(2);
      expect(await passesAt(60_001)).toBe(2);
    } finally {
      vi.useRealTimers();
    }
  });

  test("a store that cannot forget is logged, and the payment still admitted", async () => {
    const closed = await closedDb();
    // Only updates fail (forgetting is the one an admission of a new payment makes).
    const db = new Proxy(store.db, { get: (live, key) => (key === "update" ? closed.update.bind(closed) : Reflect.get(live, key)) });
    const p = await payment();
    expect(admitted(await service({ db }).admit(route, resource, p.header)).id).toBe(p.id);
    expect(logs).toEqual(["[x402] kept answers past their retention could not be forgotten"]);
  });

  test("without a log given, what could not be done is written to the console as a warning", async () => {
    const closed = await closedDb();
    const db = new Proxy(store.db, { get: (live, key) => (key === "update" ? closed.update.bind(closed) : Reflect.get(live, key)) });
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      expect(admitted(await service({ db, log: undefined }).admit(route, resource, (await payment()).header))).toBeTruthy();
      expect(warn.mock.calls).toEqual([["[x402] kept answers past their retention could not be forgotten"]]);
    } finally {
      warn.mockRestore();
    }
  });
});
