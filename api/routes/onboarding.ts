import { presentedKey } from "../access/authenticate";
import type { AccessDeps } from "../access/createAccessDeps";
import { ApiError } from "../errors";
import { requestOrigin } from "../http/requestOrigin";
import type { MountRoute } from "./createRouteMounter";
import { routes } from "./routeTable";

/**
 * Onboarding, no credential (limited per client address): the free key by wallet signature, and paid
 * keys by a purchase intent and its on-chain payment. Renewal presents the key in x-api-key.
 */
export function mountOnboardingRoutes(mount: MountRoute, deps: AccessDeps) {
  mount(routes.freeChallenge, async (c) => {
    const result = await deps.freeKeys.challenge(c.req.valid("json").userWallet, requestOrigin(c, deps.origins));
    if (!result.ok) throw ApiError.of(result);
    return c.json({ ...result.value, claimWith: routes.freeClaim.name });
  });
  mount(routes.freeClaim, async (c) => {
    const result = await deps.freeKeys.claim(c.req.valid("json"));
    if (!result.ok) throw ApiError.of(result);
    return c.json(result.value);
  });
  mount(routes.purchaseIntent, async (c) => {
    const { tier, userWallet, durationDays, renewExistingKey } = c.req.valid("json");
    const renew = renewExistingKey ? await presentedKey(c, deps) : null;
    const origin = requestOrigin(c, deps.origins);
    const result = await deps.purchases.createIntent({ tier, userWallet, durationDays, origin, renew });
    if (!result.ok) throw ApiError.of(result);
    return c.json({ ...result.value, claimWith: routes.cryptoClaim.name });
  });
  mount(routes.cryptoClaim, async (c) => {
    const result = await deps.purchases.claim(c.req.valid("json"));
    if (!result.ok) throw ApiError.of(result);
    return c.json(result.value);
  });
}
