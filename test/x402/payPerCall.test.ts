import { decodePaymentRequiredHeader, decodePaymentResponseHeader, encodePaymentSignatureHeader } from "@x402/core/http";
import type { PaymentPayload } from "@x402/core/types";
import { PAYMENT_IDENTIFIER } from "@x402/extensions/payment-identifier";
import { Hono } from "hono";
import type { Hex } from "viem";
import { beforeEach, describe, expect, test } from "vitest";
import type { AccessEnv } from "../../api/access/AccessControlParameters";
import { ApiError } from "../../api/errors";
import { handleError } from "../../api/http/errorHandling";
import { routes } from "../../api/routes/routeList";
import { findX402Payment } from "../../api/store/x402PaymentQueries";
import type { SettlementConfirmation } from "../../api/x402/confirmSettlement";
import { paymentId } from "../../api/x402/createX402Admission";
import { type CreateX402ServiceParameters, createX402Service, type X402Service } from "../../api/x402/createX402Service";
import { createX402Signer } from "../../api/x402/createX402Signer";
import { payPerCall } from "../../api/x402/payPerCall";
import { FacilitatorUnavailableError } from "../../api/x402/X402Facilitator";
import { baseNetwork } from "../../base/baseChain";
import { fileAppStore } from "../support/fileAppStore";
import {
  auditTerms,
  authorizationOf,
  offChainPayerChecks,
  type RecordedFacilitator,
  recordedFacilitator,
  testPayTo,
  txHashOf,
} from "../support/recordedFacilitator";
import { signedPayment } from "../support/signedPayment";

// Anvil's well-known development keys: the payer and the key receipts are signed with; the payee is anvil's sixth account.
const payerKey: Hex = "0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a";
const signingKey: Hex = "0x47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a";
const payTo = testPayTo;
const origins = { public: "http://127.0.0.1:42069", fallback: "https://fallback.example" };
const path = "/v1/audit/0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";
const url = `${origins.public}${path}`;
const ours = auditTerms;
const body = '{"observationBlock":{"blockNumber":24410400},"capabilityScore":7}';

const store = fileAppStore();
let facilitator: RecordedFacilitator;
let chain: SettlementConfirmation;
let x402: X402Service;
/** What the route's handler answers, as a test sets it; each run is counted with the principal it saw. */
let handler: () => Response | Promise<Response>;
const served: unknown[] = [];

/** The x402 service over this file's store, facilitator and chain verdict; a test replaces what it is about. */
const serviceWith = (overrides: Partial<CreateX402ServiceParameters>) =>
  createX402Service({
    db: store.db,
    storeReady: store.ready,
    facilitator,
    payTo,
    network: baseNetwork,
    confirmSettlement: async () => chain,
    resolvePending: async () => ({ status: "PENDING" }),
    signer: createX402Signer(signingKey),
    retentionSeconds: 3600,
    ...offChainPayerChecks,
    retryWaitMs: 0,
    log: () => undefined,
    ...overrides,
  });

beforeEach(() => {
  facilitator = recordedFacilitator();
  chain = "CONFIRMED";
  x402 = serviceWith({});
  handler = () =>
    new Response(body, {
      status: 200,
      headers: { "content-type": "application/json; charset=UTF-8", "x-service-trust-level": "TRUSTED_PRIMARY", "x-request-id": "r1" },
    });
  served.length = 0;
});

/** The audit route behind payPerCall, as the route mounter mounts it, with the app's error handling. */
function app() {
  const a = new Hono<AccessEnv>();
  a.onError((err, c) => handleError(err, c, () => undefined));
  a.get("/v1/audit/:address", payPerCall({ service: x402, route: routes.audit, origins, plansUrl: "/v1/plans" }), async (c) => {
    served.push(c.get("principal"));
    return handler();
  });
  return a;
}
const send = (headers: Record<string, string> = {}, at = url) => app().request(at, { headers });

/** A real payment of our terms, with a payment-identifier id when one is given. */
async function payment(id?: string) {
  const { payload } = await signedPayment(ours, payerKey);
  const withId = id === undefined ? payload : { ...payload, extensions: { [PAYMENT_IDENTIFIER]: { info: { required: false, id } } } };
  return { header: encodePaymentSignatureHeader(withId as PaymentPayload), id: paymentId(ours, authorizationOf(payload)), payload };
}

describe("payPerCall", () => {
  test("no PAYMENT-SIGNATURE: 402 PAYMENT_REQUIRED with the challenge in PAYMENT-REQUIRED and the body, never cached; the handler does not run", async () => {
    const res = await send();
    expect(res.status).toBe(402);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const challenge = decodePaymentRequiredHeader(res.headers.get("payment-required") as string);
    expect(challenge).toMatchObject({ x402Version: 2, resource: { url }, accepts: [ours] });
    expect(await res.json()).toEqual({
      error: "PAYMENT_REQUIRED",
      message: "pay 0.02 USDC for this call with x402 (the challenge is in PAYMENT-REQUIRED), or use an API key",
      plans: "/v1/plans",
      paymentRequired: JSON.parse(JSON.stringify(challenge)),
    });
    expect(served).toEqual([]);
  });

  test("the challenge names the resource at the origin the request came through", async () => {
    const res = await send({}, `${origins.fallback}${path}`);
    expect(decodePaymentRequiredHeader(res.headers.get("payment-required") as string).resource.url).toBe(`${origins.fallback}${path}`);
  });

  test("no facilitator to offer payment: 503 PAYMENT_FACILITATOR_UNAVAILABLE, without a challenge", async () => {
    facilitator.answerSupported = () => Promise.reject(new FacilitatorUnavailableError("down"));
    const paying: Record<string, string> = { "payment-signature": (await payment()).header };
    for (const headers of [{}, paying]) {
      const res = await send(headers);
      expect(res.status).toBe(503);
      expect(await res.json()).toMatchObject({ error: "PAYMENT_FACILITATOR_UNAVAILABLE", retryable: true });
      expect(res.headers.get("payment-required")).toBeNull();
    }
  });

  test("a refused payment: 402 PAYMENT_INVALID with a fresh challenge in PAYMENT-REQUIRED; a refusal without one has no header", async () => {
    const invalid = await send({ "payment-signature": "not a payment" });
    expect(invalid.status).toBe(402);
    expect(await invalid.json()).toMatchObject({ error: "PAYMENT_INVALID", reason: "payment_signature_not_base64" });
    expect(decodePaymentRequiredHeader(invalid.headers.get("payment-required") as string)).toMatchObject({
      error: "payment_signature_not_base64",
      accepts: [ours],
    });
    expect(invalid.headers.get("cache-control")).toBe("no-store");
    const badId = await send({ "payment-signature": (await payment("short")).header });
    expect(badId.status).toBe(400);
    expect(await badId.json()).toMatchObject({ error: "PAYMENT_ID_INVALID" });
    expect(badId.headers.get("payment-required")).toBeNull();
    expect(served).toEqual([]);
  });

  test("a paid 2xx answer is served with its receipt, privately; the answer kept is its status, type, body and provenance headers", async () => {
    const p = await payment();
    const res = await send({ "payment-signature": p.header });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(body);
    expect(served).toEqual([{ kind: "x402" }]);
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    expect(decodePaymentResponseHeader(res.headers.get("payment-response") as string)).toMatchObject({
      success: true,
      transaction: txHashOf(authorizationOf(p.payload).nonce),
    });
    const row = await findX402Payment(store.db, p.id);
    expect(row?.status).toBe("SETTLED");
    expect(JSON.parse(row?.answer as string)).toEqual({
      status: 200,
      contentType: "application/json; charset=UTF-8",
      body,
      headers: { "x-service-trust-level": "TRUSTED_PRIMARY" },
    });
  });

  test("every 2xx is settled (201 here); an answer without a content type is kept as JSON", async () => {
    // Headers given (none): @hono/node-server's Response, global in a process that served HTTP, adds text/plain to a Response built without.
    handler = () => new Response(new TextEncoder().encode(body), { status: 201, headers: {} });
    const p = await payment();
    const res = await send({ "payment-signature": p.header });
    expect(res.status).toBe(201);
    expect(res.headers.get("payment-response")).not.toBeNull();
    const row = await findX402Payment(store.db, p.id);
    expect(JSON.parse(row?.answer as string)).toEqual({ status: 201, contentType: "application/json", body, headers: {} });
  });

  test("a retry of a paid request is its kept answer with its receipt, without running the handler again", async () => {
    const first = await send({ "payment-signature": (await payment("pay_call_retried_once")).header });
    const retry = await send({ "payment-signature": (await payment("pay_call_retried_once")).header });
    expect(served).toHaveLength(1);
    expect(retry.status).toBe(200);
    expect(await retry.text()).toBe(body);
    expect(retry.headers.get("content-type")).toBe("application/json; charset=UTF-8");
    expect(retry.headers.get("x-service-trust-level")).toBe("TRUSTED_PRIMARY");
    expect(retry.headers.get("x-request-id")).toBeNull();
    expect(retry.headers.get("cache-control")).toBe("private, no-store");
    expect(retry.headers.get("payment-response")).toBe(first.headers.get("payment-response"));
  });

  test("an answer that is not a 2xx (400, 300, or a thrown 503) takes nothing: the payment is given back, the answer served as it is", async () => {
    const answers: [number, () => Response][] = [
      [400, () => Response.json({ error: "INVALID_ADDRESS" }, { status: 400 })],
      [300, () => new Response(null, { status: 300 })],
      [
        503,
        () => {
          throw new ApiError("DATA_SOURCE_UNAVAILABLE", "no provider answered");
        },
      ],
    ];
    for (const [status, answer] of answers) {
      handler = answer;
      const p = await payment();
      const res = await send({ "payment-signature": p.header });
      expect(res.status, String(status)).toBe(status);
      expect(res.headers.get("payment-response"), String(status)).toBeNull();
      expect(await findX402Payment(store.db, p.id), String(status)).toBeUndefined();
    }
    expect(facilitator.calls.filter((c) => c.method === "settle")).toEqual([]);
  });

  test("a settlement that fails replaces the answer: 402 PAYMENT_SETTLEMENT_FAILED with the failed receipt, never cached", async () => {
    chain = "CONTRADICTED";
    const res = await send({ "payment-signature": (await payment()).header });
    expect(res.status).toBe(402);
    const text = await res.text();
    expect(JSON.parse(text)).toMatchObject({ error: "PAYMENT_SETTLEMENT_FAILED", reason: "settlement_not_on_chain" });
    expect(text).not.toContain("capabilityScore");
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(decodePaymentResponseHeader(res.headers.get("payment-response") as string)).toMatchObject({
      success: false,
      errorReason: "settlement_not_on_chain",
    });
  });

  test("a payment already taken whose answer fails (a recovered claim): 409 PAYMENT_PENDING, retry the same payment", async () => {
    const p = await payment();
    // The claim of a process that died after its transfer, recovered by this retry.
    const claimed = await x402.admit(routes.audit, { url, path }, p.header);
    if (!claimed.ok || claimed.value.kind !== "PAY") throw new Error("not admitted");
    await x402.release({ ...claimed.value.payment, settledTx: txHashOf("taken") });
    const stale = serviceWith({
      resolvePending: async () => ({ status: "SETTLED", txHash: txHashOf("taken") }),
      signer: null,
    });
    x402 = stale;
    handler = () => Response.json({ error: "DATA_SOURCE_UNAVAILABLE" }, { status: 503 });
    const res = await send({ "payment-signature": p.header });
    expect(res.status).toBe(409);
    expect(res.headers.get("retry-after")).toBe("2");
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(await res.json()).toMatchObject({ error: "PAYMENT_PENDING", reason: "payment_taken_answer_failed" });
  });
});
