import { createHash } from "node:crypto";
import { z } from "zod";
import { ApiError } from "../errors";
import { answerJson } from "../http/jsonAnswer";
import { defineRoute } from "./defineRoute";
import { servedRoute } from "./servedRoute";

const gatewayHeaders = ["x-gateway-user", "x-gateway-subscription", "x-gateway-host", "x-gateway-key"];

/**
 * The operator bootstrap: with the bootstrap token (checked by the route's access policy), the SHA-256
 * digest to configure as GATEWAY_PROXY_SECRET_SHA256 of the secret the marketplace sends. The proxy
 * secret is only hashed in memory, never returned or kept.
 */
export const gatewayProxyDigest = servedRoute(
  defineRoute({
    group: "Operator",
    method: "get",
    path: "/v1/operator/gateway-proxy-digest",
    summary: "SHA-256 digest of the marketplace proxy secret, for GATEWAY_PROXY_SECRET_SHA256 (operator bootstrap)",
    description:
      "404 unless OPERATOR_BOOTSTRAP_TOKEN (at least 32 characters) is configured. Headers: x-operator-bootstrap, x-gateway-proxy-secret, and at least one of x-gateway-user, x-gateway-subscription, x-gateway-host, x-gateway-key.",
    access: "operator",
    responses: { 200: { description: "{sha256}", schema: z.object({ sha256: z.string().regex(/^[0-9a-f]{64}$/) }) } },
    errors: [
      "CREDENTIAL_IN_QUERY",
      "NOT_FOUND",
      "OPERATOR_UNAUTHORIZED",
      "TOO_MANY_FAILED_AUTHENTICATIONS",
      "PROXY_SECRET_REQUIRED",
      "GATEWAY_HEADERS_REQUIRED",
      "RATE_LIMITED",
    ],
  }),
  {
    handler: () => async (c) => {
      const secret = c.req.header("x-gateway-proxy-secret")?.trim();
      if (!secret) throw new ApiError("PROXY_SECRET_REQUIRED", "send the marketplace's proxy secret in x-gateway-proxy-secret");
      if (!gatewayHeaders.some((h) => c.req.header(h)?.trim())) {
        throw new ApiError("GATEWAY_HEADERS_REQUIRED", `send at least one of ${gatewayHeaders.join(", ")} (as the marketplace proxy does)`);
      }
      return answerJson(c, { sha256: createHash("sha256").update(secret).digest("hex") }, { headers: { "Cache-Control": "no-store" } });
    },
  },
);
