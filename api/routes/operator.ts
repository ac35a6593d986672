import { createHash, timingSafeEqual } from "node:crypto";
import { Hono, type MiddlewareHandler } from "hono";
import type { AccessDeps } from "../access/createAccessDeps";
import { ApiError } from "../errors";
import { accessRouteError } from "./accessErrors";

const sha256 = (value: string) => createHash("sha256").update(value).digest();
const gatewayHeaders = ["x-gateway-user", "x-gateway-subscription", "x-gateway-host", "x-gateway-key"];

/**
 * `GET /v1/operator/gateway-proxy-digest`: lets an operator, holding the bootstrap token, learn the
 * SHA-256 digest to configure as GATEWAY_PROXY_SECRET_SHA256 from the secret the marketplace sends.
 * 404 unless OPERATOR_BOOTSTRAP_TOKEN (at least 32 characters) is configured; the token is compared
 * in constant time on SHA-256 digests; the proxy secret is only hashed in memory, never returned or kept.
 */
export function operatorRoutes(deps: AccessDeps) {
  const token = deps.operatorBootstrapToken;
  const tokenDigest = token && token.length >= 32 ? sha256(token) : undefined;
  // Unconfigured, the route answers exactly as a route that does not exist (not even a rate-limit header).
  const enabled: MiddlewareHandler = async function enabled(c, next) {
    if (!tokenDigest) throw new ApiError(404, "NOT_FOUND", `no route ${c.req.method} ${c.req.path}`);
    await next();
  };
  return new Hono()
    .get("/v1/operator/gateway-proxy-digest", enabled, deps.publicLimit(), async (c) => {
      if (!tokenDigest || !timingSafeEqual(sha256(c.req.header("x-operator-bootstrap") ?? ""), tokenDigest)) {
        throw new ApiError(401, "OPERATOR_UNAUTHORIZED", "x-operator-bootstrap is missing or wrong");
      }
      const secret = c.req.header("x-gateway-proxy-secret")?.trim();
      if (!secret) throw new ApiError(400, "PROXY_SECRET_REQUIRED", "send the marketplace's proxy secret in x-gateway-proxy-secret");
      if (!gatewayHeaders.some((h) => c.req.header(h)?.trim())) {
        throw new ApiError(
          400,
          "GATEWAY_HEADERS_REQUIRED",
          `send at least one of ${gatewayHeaders.join(", ")} (as the marketplace proxy does)`,
        );
      }
      c.header("Cache-Control", "no-store");
      return c.json({ sha256: sha256(secret).toString("hex") });
    })
    .onError(accessRouteError);
}
