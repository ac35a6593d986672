import { encodePaymentRequiredHeader } from "@x402/core/http";
import type { PaymentRequired } from "@x402/core/types";
import type { MiddlewareHandler } from "hono";
import type { AccessEnv } from "../access/AccessControlParameters";
import type { ServiceOrigins } from "../config";
import { ApiError } from "../errors";
import { errorAnswer } from "../http/errorHandling";
import { requestOrigin } from "../http/requestOrigin";
import type { X402Service } from "./createX402Service";
import type { PaidRoute } from "./PaidRoute";
import { keptAnswerHeaders } from "./paidAnswer";

export type PayPerCallParameters = {
  service: X402Service;
  route: PaidRoute;
  /** The challenge names the resource at the origin the request came through. */
  origins: ServiceOrigins;
  /** Where the plans are listed (API keys), named in the 402 answer. */
  plansUrl: string;
};

/** A challenge's headers: x402 v2 reads PAYMENT-REQUIRED; it must not be cached. */
const challengeHeaders = (challenge: PaymentRequired) => ({
  "PAYMENT-REQUIRED": encodePaymentRequiredHeader(challenge),
  "Cache-Control": "no-store",
});

/**
 * x402 per-call payment of one route, the thin Hono side of `X402Service`: no PAYMENT-SIGNATURE is a
 * 402 PAYMENT_REQUIRED challenge; a payment is verified and claimed before the handler runs, settled
 * only after a 2xx answer (its receipt in PAYMENT-RESPONSE), and given back after any other answer.
 * A settlement that fails or is not known yet replaces the answer: nothing is served unpaid. A retry
 * of a payment already paid for gets its stored answer, without the handler.
 */
export function payPerCall({ service, route, origins, plansUrl }: PayPerCallParameters): MiddlewareHandler<AccessEnv> {
  return async function payPerCall(c, next) {
    const resource = { url: `${requestOrigin(c, origins)}${c.req.path}`, path: c.req.path };
    const header = c.req.header("payment-signature");
    if (header === undefined) {
      const challenge = await service.challenge(route, resource);
      if (!challenge.ok) throw ApiError.of(challenge);
      throw new ApiError(
        "PAYMENT_REQUIRED",
        `pay ${route.x402PriceUsd} USDC for this call with x402 (the challenge is in PAYMENT-REQUIRED), or use an API key`,
        { plans: plansUrl, paymentRequired: challenge.value },
        challengeHeaders(challenge.value),
      );
    }
    const admitted = await service.admit(route, resource, header);
    if (!admitted.ok) {
      const challenge = admitted.details?.paymentRequired as PaymentRequired | undefined;
      throw ApiError.of(admitted, challenge ? challengeHeaders(challenge) : {});
    }
    c.set("principal", { kind: "x402" });
    if (admitted.value.kind === "REPLAY") {
      const { answer, paymentResponse } = admitted.value;
      c.res = new Response(answer.body, {
        status: answer.status,
        headers: { ...answer.headers, "content-type": answer.contentType, ...paidHeaders(paymentResponse) },
      });
      return;
    }
    const { payment } = admitted.value;
    await next();
    if (c.error || c.res.status < 200 || c.res.status >= 300) {
      const refusal = await service.release(payment);
      if (refusal) {
        const error = ApiError.of(refusal, { "Cache-Control": "no-store" });
        c.res = errorAnswer(c, error);
      }
      return;
    }
    const answer = {
      status: c.res.status,
      contentType: c.res.headers.get("content-type") ?? "application/json",
      body: await c.res.clone().text(),
      headers: Object.fromEntries(keptAnswerHeaders.flatMap((h) => (c.res.headers.has(h) ? [[h, c.res.headers.get(h) as string]] : []))),
    };
    const { paymentResponse, refusal } = await service.settle(payment, answer);
    if (refusal) {
      const error = ApiError.of(refusal, { "PAYMENT-RESPONSE": paymentResponse, "Cache-Control": "no-store" });
      c.res = errorAnswer(c, error);
      return;
    }
    // c.res is a native Response since its clone above, so these stay on it (a HEAD answer included).
    for (const [name, value] of Object.entries(paidHeaders(paymentResponse))) c.res.headers.set(name, value);
  };
}

/** Headers of a paid answer: its receipt, and no shared cache (a paid answer is the payer's own). */
const paidHeaders = (paymentResponse: string) => ({ "PAYMENT-RESPONSE": paymentResponse, "Cache-Control": "private, no-store" });
