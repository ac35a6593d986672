import type { Context } from "hono";
import type { AccessEnv } from "../access/AccessOptions";
import type { AccessDeps } from "../access/createAccessDeps";
import { spendableNow } from "../access/createCreditService";
import { ApiError } from "../errors";
import { requestOrigin } from "../http/requestOrigin";
import type { MountRoute } from "./createRouteMounter";
import { routes } from "./routeTable";

/**
 * The presented key's metadata and revocation (API key only; x402 cannot use them, and they cost no
 * credit), and wallet-signed recovery of a paid key (no credential).
 */
export function mountKeyRoutes(mount: MountRoute, deps: AccessDeps) {
  mount(routes.keySelf, async (c) => {
    const self = await deps.keys.describe(principalKey(c));
    c.header("X-Credits-Remaining", String(spendableNow(self.credits)));
    c.header("Cache-Control", "no-store");
    return c.json(self);
  });
  mount(routes.keyRevoke, async (c) => {
    if (c.req.valid("json").confirm !== true) {
      throw new ApiError("CONFIRMATION_REQUIRED", 'send {"confirm": true} to revoke this key permanently');
    }
    return c.json(await deps.keys.revoke(principalKey(c)));
  });
  mount(routes.recoveryChallenge, async (c) => {
    const { userWallet, txHash } = c.req.valid("json");
    const origin = requestOrigin(c, deps.origins);
    const result = await deps.recovery.challenge({ wallet: userWallet, txHash: txHash ?? null, origin });
    if (!result.ok) throw ApiError.of(result);
    return c.json({ ...result.value, claimWith: routes.recoveryClaim.name }, 202);
  });
  mount(routes.recoveryClaim, async (c) => {
    const result = await deps.recovery.claim(c.req.valid("json"));
    if (!result.ok) throw ApiError.of(result);
    return c.json(result.value);
  });
}

function principalKey(c: Context<AccessEnv>) {
  const principal = c.get("principal");
  if (principal.kind !== "apiKey") throw new Error("requireApiKey set no API key principal");
  return principal.key;
}
