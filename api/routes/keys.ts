import type { Context } from "hono";
import type { AccessEnv } from "../access/AccessControlParameters";
import { spendableNow } from "../access/createCreditService";
import { ApiError } from "../errors";
import { answerJson } from "../http/jsonAnswer";
import { requestOrigin } from "../http/requestOrigin";
import { IssuedKey, KeySelf, RecoveryIntent, RevokeResult } from "../keys/records";
import { ClaimBody, RecoveryChallengeBody, RevokeBody } from "./accessRequests";
import { defineRoute, jsonRequestBody } from "./defineRoute";
import { bodyErrors, challengeClaimErrors, intentErrors, keyErrors, onboardingErrors } from "./routeErrors";
import { servedRoute } from "./servedRoute";

/**
 * The presented key's metadata and revocation (API key only; x402 cannot use them, and they cost no
 * credit), and wallet-signed recovery of a paid key (no credential).
 */
export const keySelf = servedRoute(
  defineRoute({
    group: "Keys and payments",
    method: "get",
    path: "/v1/keys/self",
    summary: "Metadata and credits of the presented API key (never its secret; x402 cannot use this route)",
    access: "apiKey",
    responses: { 200: { description: "KeySelf", schema: KeySelf, headers: ["X-RateLimit-Remaining", "X-Credits-Remaining"] } },
    errors: keyErrors,
  }),
  {
    handler:
      ({ access: deps }) =>
      async (c) => {
        const self = await deps.keys.describe(principalKey(c));
        return answerJson(c, self, { headers: { "X-Credits-Remaining": String(spendableNow(self.credits)), "Cache-Control": "no-store" } });
      },
  },
);

export const keyRevoke = servedRoute(
  defineRoute({
    group: "Keys and payments",
    method: "post",
    path: "/v1/keys/revoke",
    summary: "Revokes the presented API key permanently (body {confirm: true})",
    access: "apiKey",
    request: { body: jsonRequestBody(RevokeBody) },
    responses: { 200: { description: "Revoke result", schema: RevokeResult } },
    errors: [...keyErrors, ...bodyErrors, "CONFIRMATION_REQUIRED"],
  }),
  {
    handler:
      ({ access: deps }) =>
      async (c) => {
        if (c.req.valid("json").confirm !== true) {
          throw new ApiError("CONFIRMATION_REQUIRED", 'send {"confirm": true} to revoke this key permanently');
        }
        return answerJson(c, await deps.keys.revoke(principalKey(c)));
      },
  },
);

export const recoveryChallenge = servedRoute(
  defineRoute({
    group: "Keys and payments",
    method: "post",
    path: "/v1/keys/recovery/challenge",
    summary: "A recovery challenge: 202 with an identical structure whether or not the wallet holds a recoverable key",
    access: "public",
    appStore: true,
    createsIntent: true,
    request: { body: jsonRequestBody(RecoveryChallengeBody) },
    responses: { 202: { description: "RecoveryIntent", schema: RecoveryIntent } },
    errors: [...onboardingErrors, ...intentErrors],
  }),
  {
    handler:
      ({ keyRoutes: deps }) =>
      async (c) => {
        const { userWallet, txHash } = c.req.valid("json");
        const origin = requestOrigin(c, deps.origins);
        const result = await deps.recovery.challenge({ wallet: userWallet, txHash: txHash ?? null, origin });
        if (!result.ok) throw ApiError.of(result);
        return answerJson(c, { ...result.value, claimWith: recoveryClaim.name }, { status: 202 });
      },
  },
);

export const recoveryClaim = servedRoute(
  defineRoute({
    group: "Keys and payments",
    method: "post",
    path: "/v1/keys/recovery/claim",
    summary: "Replaces a paid key's secret atomically (tier and expiry kept; the replacement is shown once)",
    access: "public",
    appStore: true,
    request: { body: jsonRequestBody(ClaimBody) },
    responses: { 200: { description: "IssuedKey (REPLACED)", schema: IssuedKey } },
    errors: [...challengeClaimErrors, "RECOVERY_CHALLENGE_CONSUMED", "RECOVERY_TARGET_CHANGED", "NO_RECOVERABLE_KEY"],
  }),
  {
    handler:
      ({ keyRoutes: deps }) =>
      async (c) => {
        const result = await deps.recovery.claim(c.req.valid("json"));
        if (!result.ok) throw ApiError.of(result);
        return answerJson(c, result.value);
      },
  },
);

function principalKey(c: Context<AccessEnv>) {
  const principal = c.get("principal");
  if (principal.kind !== "apiKey") throw new Error("requireApiKey set no API key principal");
  return principal.key;
}
