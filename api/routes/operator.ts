import { createHash } from "node:crypto";
import { ApiError } from "../errors";
import type { MountRoute } from "./createRouteMounter";
import { routes } from "./routeTable";

const gatewayHeaders = ["x-gateway-user", "x-gateway-subscription", "x-gateway-host", "x-gateway-key"];

/**
 * The operator bootstrap: with the bootstrap token (checked by the route's access policy), the SHA-256
 * digest to configure as GATEWAY_PROXY_SECRET_SHA256 of the secret the marketplace sends. The proxy
 * secret is only hashed in memory, never returned or kept.
 */
export function mountOperatorRoutes(mount: MountRoute) {
  mount(routes.gatewayProxyDigest, async (c) => {
    const secret = c.req.header("x-gateway-proxy-secret")?.trim();
    if (!secret) throw new ApiError("PROXY_SECRET_REQUIRED", "send the marketplace's proxy secret in x-gateway-proxy-secret");
    if (!gatewayHeaders.some((h) => c.req.header(h)?.trim())) {
      throw new ApiError("GATEWAY_HEADERS_REQUIRED", `send at least one of ${gatewayHeaders.join(", ")} (as the marketplace proxy does)`);
    }
    c.header("Cache-Control", "no-store");
    return c.json({ sha256: createHash("sha256").update(secret).digest("hex") });
  });
}
