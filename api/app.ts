import { Hono } from "hono";
import { cors } from "hono/cors";
import type { AccessDeps } from "./access/createAccessDeps";
import { rejectQueryCredentials } from "./access/rejectQueryCredentials";
import type { AuditContractDeps } from "./capability/auditContract";
import type { DemoSample } from "./capability/demoSamples";
import type { CheckStatusDeps } from "./health/checkStatus";
import { handleError, methodNotAllowedOrNotFound } from "./http/errorHandling";
import { capabilityRoutes } from "./routes/capabilities";
import { demoRoutes } from "./routes/demo";
import { keysRoutes } from "./routes/keys";
import { onboardingRoutes } from "./routes/onboarding";
import { openApiRoutes } from "./routes/openapi";
import { operatorRoutes } from "./routes/operator";
import { plansRoutes } from "./routes/plans";
import { statusRoutes } from "./routes/status";

/** What the API is built from: every dependency is passed in, so tests hand it real ones. */
export type AppDeps = {
  status: CheckStatusDeps;
  /** Live contract analysis: the Base providers and the demo's published samples. */
  capability: AuditContractDeps & { samples: readonly DemoSample[] };
  /** API keys, onboarding, credits, rate limits, gateway: the protected routes' middleware and the access routes' services. */
  access: AccessDeps;
};

/**
 * The whole HTTP API: middleware order, route mounting and the one error shape. Ponder serves it
 * through src/api/index.ts; tests drive it with `app.request()`.
 */
export function createApp(deps: AppDeps) {
  const app = new Hono();
  app.use(
    cors({
      origin: "*",
      allowHeaders: ["content-type", "authorization", "x-api-key", "payment-signature", "x-gateway-key", "mcp-protocol-version"],
      exposeHeaders: [
        "payment-required",
        "payment-response",
        "x-credits-remaining",
        "x-ratelimit-remaining",
        "retry-after",
        "x-service-rpc-provider",
        "x-service-trust-level",
      ],
    }),
  );
  // Before any route: a credential in the URL never reaches a handler.
  app.use(rejectQueryCredentials());
  app.route("/", statusRoutes(deps.status));
  app.route("/", demoRoutes(deps.capability, deps.access.publicLimit()));
  app.route("/", capabilityRoutes(deps.capability, deps.access));
  app.route("/", openApiRoutes());
  app.route("/", plansRoutes(deps.access));
  app.route("/", onboardingRoutes(deps.access));
  app.route("/", keysRoutes(deps.access));
  app.route("/", operatorRoutes(deps.access));
  app.all("*", methodNotAllowedOrNotFound(app));
  app.onError((err, c) => handleError(err, c));
  return app;
}
