import { encodePaymentRequiredHeader, encodePaymentResponseHeader } from "@x402/core/http";
import type { PaymentRequired } from "@x402/core/types";
import type { MiddlewareHandler } from "hono";
import type { AccessEnv } from "../access/AccessOptions";
import type { ServiceOrigins } from "../config";
import { ApiError } from "../errors";
import { requestOrigin } from "../http/requestOrigin";
import type { PaidRoute, X402Service } from "./createX402Service";

export type PayPerCallOptions = {
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
 * A settlement that fails replaces the answer: nothing is served unpaid.
 */
export function payPerCall({ service, route, origins, plansUrl }: PayPerCallOptions): MiddlewareHandler<AccessEnv> {
  return async function payPerCall(c, next) {
    const resourceUrl = `${requestOrigin(c, origins)}${c.req.path}`;
    const header = c.req.header("payment-signature");
    if (header === undefined) {
      const challenge = await service.challenge(route, resourceUrl);
      if (!challenge.ok) throw ApiError.of(challenge);
      throw new ApiError(
        "PAYMENT_REQUIRED",
        `pay ${route.x402PriceUsd} USDC for this call with x402 (the challenge is in PAYMENT-REQUIRED), or use an API key`,
        { plans: plansUrl, paymentRequired: challenge.value },
        challengeHeaders(challenge.value),
      );
    }
    const admitted = await service.admit(route, resourceUrl, header);
    if (!admitted.ok) {
      const challenge = admitted.details?.paymentRequired as PaymentRequired | undefined;
      throw ApiError.of(admitted, challenge ? challengeHeaders(challenge) : {});
    }
    c.set("principal", { kind: "x402" });
    await next();
    if (c.error || c.res.status < 200 || c.res.status >= 300) return service.release(admitted.value);
    const { receipt, refusal } = await service.settle(admitted.value);
    if (refusal) {
      const error = ApiError.of(refusal, { "PAYMENT-RESPONSE": encodePaymentResponseHeader(receipt), "Cache-Control": "no-store" });
      c.res = c.json(error.body(), error.status, error.headers);
      return;
    }
    c.res.headers.set("PAYMENT-RESPONSE", encodePaymentResponseHeader(receipt));
    // A paid answer is the payer's own: no shared cache keeps it.
    c.res.headers.set("Cache-Control", "private, no-store");
  };
}
