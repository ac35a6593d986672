import { presentedKey } from "../access/authenticate";
import { ApiError } from "../errors";
import { answerJson } from "../http/jsonAnswer";
import { requestOrigin } from "../http/requestOrigin";
import { IntentEnvelope, IssuedKey, PurchaseIntent } from "../keys/records";
import { ClaimBody, CryptoClaimBody, FreeChallengeBody, PurchaseBody } from "./accessRequests";
import { defineRoute, jsonRequestBody } from "./defineRoute";
import { challengeClaimErrors, intentErrors, keyErrors, onboardingErrors } from "./routeErrors";
import { servedRoute } from "./servedRoute";

/**
 * Onboarding, no credential (limited per client address): the free key by wallet signature, and paid
 * keys by a purchase intent and its on-chain payment. Renewal presents the key in x-api-key.
 */
export const freeChallenge = servedRoute(
  defineRoute({
    group: "Keys and payments",
    method: "post",
    path: "/v1/subscribe/free/challenge",
    summary: "A challenge for the wallet's one free key (sign messageToSign with personal_sign)",
    access: "public",
    appStore: true,
    createsIntent: true,
    request: { body: jsonRequestBody(FreeChallengeBody) },
    responses: { 200: { description: "IntentEnvelope", schema: IntentEnvelope } },
    errors: [...onboardingErrors, ...intentErrors],
  }),
  {
    handler:
      ({ keyRoutes: deps }) =>
      async (c) => {
        const result = await deps.freeKeys.challenge(c.req.valid("json").userWallet, requestOrigin(c, deps.origins));
        if (!result.ok) throw ApiError.of(result);
        return answerJson(c, { ...result.value, claimWith: freeClaim.name });
      },
  },
);

export const freeClaim = servedRoute(
  defineRoute({
    group: "Keys and payments",
    method: "post",
    path: "/v1/subscribe/free/claim",
    summary: "The free key for a valid signature over the challenge (the raw key is shown once)",
    access: "public",
    appStore: true,
    request: { body: jsonRequestBody(ClaimBody) },
    responses: { 200: { description: "IssuedKey", schema: IssuedKey } },
    errors: [...challengeClaimErrors, "FREE_KEY_EXISTS"],
  }),
  {
    handler:
      ({ keyRoutes: deps }) =>
      async (c) => {
        const result = await deps.freeKeys.claim(c.req.valid("json"));
        if (!result.ok) throw ApiError.of(result);
        return answerJson(c, result.value);
      },
  },
);

export const purchaseIntent = servedRoute(
  defineRoute({
    group: "Keys and payments",
    method: "post",
    path: "/v1/subscribe/intents",
    summary: "A purchase intent freezing the exact USDC (and wei, with a live quote) amount, duration and renewal target for 15 minutes",
    description: "With renewExistingKey the active same-tier paid key is presented in x-api-key.",
    access: "public",
    appStore: true,
    createsIntent: true,
    request: { body: jsonRequestBody(PurchaseBody) },
    responses: { 200: { description: "PurchaseIntent", schema: PurchaseIntent } },
    errors: [...onboardingErrors, ...intentErrors, ...keyErrors, "RENEWAL_TARGET_INVALID", "PAYMENTS_UNAVAILABLE"],
  }),
  {
    handler:
      ({ access, keyRoutes: deps }) =>
      async (c) => {
        const { tier, userWallet, durationDays, renewExistingKey } = c.req.valid("json");
        const renew = renewExistingKey ? await presentedKey(c, access) : null;
        const origin = requestOrigin(c, deps.origins);
        const result = await deps.purchases.createIntent({ tier, userWallet, durationDays, origin, renew });
        if (!result.ok) throw ApiError.of(result);
        return answerJson(c, { ...result.value, claimWith: cryptoClaim.name });
      },
  },
);

export const cryptoClaim = servedRoute(
  defineRoute({
    group: "Keys and payments",
    method: "post",
    path: "/v1/subscribe/crypto",
    summary: "Redeems a payment with 3 confirmations for a purchase intent: a new key, or the renewal target's expiry extended",
    access: "public",
    appStore: true,
    request: { body: jsonRequestBody(CryptoClaimBody) },
    responses: { 200: { description: "IssuedKey", schema: IssuedKey } },
    errors: [
      ...onboardingErrors,
      "INTENT_NOT_FOUND",
      "INTENT_ALREADY_USED",
      "INTENT_EXPIRED",
      "CHALLENGE_ORIGIN_MISMATCH",
      "INTENT_SIGNATURE_INVALID",
      "TX_ALREADY_REDEEMED",
      "PAYMENT_NOT_FOUND",
      "PAYMENT_NOT_INDEXED",
      "PAYMENT_NOT_FINAL",
      "PAYMENT_SENDER_MISMATCH",
      "PAYMENT_AMOUNT_MISMATCH",
      "PAYMENT_FAILED",
      "ETH_NOT_OFFERED",
      "PAYMENTS_UNAVAILABLE",
      "DATA_SOURCE_UNAVAILABLE",
    ],
  }),
  {
    handler:
      ({ keyRoutes: deps }) =>
      async (c) => {
        const result = await deps.purchases.claim(c.req.valid("json"));
        if (!result.ok) throw ApiError.of(result);
        return answerJson(c, result.value);
      },
  },
);
