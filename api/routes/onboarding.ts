import { Hono } from "hono";
import type { AccessDeps } from "../access/createAccessDeps";
import { parseJson } from "../http/parseJson";
import { accessRouteError } from "./accessErrors";
import { ClaimBody, CryptoClaimBody, FreeChallengeBody, PurchaseBody } from "./accessRequests";

/**
 * Onboarding, no credential (rate limited per client address): the free key by wallet signature, and
 * paid keys by a purchase intent and its on-chain payment. Renewal presents the key in x-api-key.
 */
export function onboardingRoutes(deps: AccessDeps) {
  const guard = [deps.publicLimit(), deps.requireStore()] as const;
  return new Hono()
    .post("/v1/subscribe/free/challenge", ...guard, async (c) => {
      const body = await parseJson(c, FreeChallengeBody);
      return c.json(await deps.freeKeys.challenge(body.userWallet));
    })
    .post("/v1/subscribe/free/claim", ...guard, async (c) => {
      const result = await deps.freeKeys.claim(await parseJson(c, ClaimBody));
      if (!result.ok) throw result.error;
      return c.json(result.value);
    })
    .post("/v1/subscribe/intents", ...guard, async (c) => {
      const body = await parseJson(c, PurchaseBody);
      const renew = body.renewExistingKey ? await deps.presentedKey(c) : null;
      const result = await deps.purchases.createIntent({
        tier: body.tier,
        userWallet: body.userWallet,
        durationDays: body.durationDays,
        renew,
      });
      if (!result.ok) throw result.error;
      return c.json(result.value);
    })
    .post("/v1/subscribe/crypto", ...guard, async (c) => {
      const result = await deps.purchases.claim(await parseJson(c, CryptoClaimBody));
      if (!result.ok) throw result.error;
      return c.json(result.value);
    })
    .onError(accessRouteError);
}
