import { Hono } from "hono";
import type { AccessEnv } from "../access/createAccess";
import type { AccessDeps } from "../access/createAccessDeps";
import { spendableNow } from "../access/createCreditService";
import { ApiError } from "../errors";
import { parseJson } from "../http/parseJson";
import { accessRouteError } from "./accessErrors";
import { ClaimBody, RecoveryChallengeBody, RevokeBody } from "./accessRequests";

/**
 * The presented key's metadata and revocation (API key only; x402 cannot use them, and they cost no
 * credit), and wallet-signed recovery of a paid key (no credential).
 */
export function keysRoutes(deps: AccessDeps) {
  const principalKey = (c: { get(name: "principal"): AccessEnv["Variables"]["principal"] }) => {
    const principal = c.get("principal");
    if (principal.kind !== "apiKey") throw new Error("requireApiKey set no API key principal");
    return principal.key;
  };
  return new Hono<AccessEnv>()
    .get("/v1/keys/self", deps.requireApiKey(), async (c) => {
      const self = await deps.keys.describe(principalKey(c));
      c.header("X-Credits-Remaining", String(spendableNow(self.credits)));
      c.header("Cache-Control", "no-store");
      return c.json(self);
    })
    .post("/v1/keys/revoke", deps.requireApiKey(), async (c) => {
      const body = await parseJson(c, RevokeBody);
      if (body.confirm !== true) throw new ApiError(400, "CONFIRMATION_REQUIRED", 'send {"confirm": true} to revoke this key permanently');
      return c.json(await deps.keys.revoke(principalKey(c)));
    })
    .post("/v1/keys/recovery/challenge", deps.publicLimit(), deps.requireStore(), async (c) => {
      const body = await parseJson(c, RecoveryChallengeBody);
      return c.json(await deps.recovery.challenge({ wallet: body.userWallet, txHash: body.txHash ?? null }), 202);
    })
    .post("/v1/keys/recovery/claim", deps.publicLimit(), deps.requireStore(), async (c) => {
      const result = await deps.recovery.claim(await parseJson(c, ClaimBody));
      if (!result.ok) throw result.error;
      return c.json(result.value);
    })
    .onError(accessRouteError);
}
