import type { OpenAPIHono } from "@hono/zod-openapi";
import { baseNetwork } from "../../base/baseChain";
import type { AccessEnv } from "../access/AccessControlParameters";
import type { ServiceOrigins } from "../config";
import { apiVersion } from "../health/checkStatus";
import { routeGroups } from "../routes/routeGroups";

/** The security schemes the routes' access policies name. */
const securitySchemes = {
  apiKeyHeader: { type: "apiKey", in: "header", name: "x-api-key" },
  bearer: { type: "http", scheme: "bearer", description: "Authorization: Bearer <API key>" },
  gatewayKey: {
    type: "apiKey",
    in: "header",
    name: "x-gateway-key",
    description: "Marketplace gateway; the origin also requires the private proxy-secret boundary",
  },
  operatorBootstrap: { type: "apiKey", in: "header", name: "x-operator-bootstrap" },
  x402: {
    type: "apiKey",
    in: "header",
    name: "PAYMENT-SIGNATURE",
    description:
      "x402 v2 per-call payment in USDC on Base: base64 of a JSON PaymentPayload (an EIP-3009 authorization of the route's price to the payout address) answering the PAYMENT-REQUIRED challenge of a 402. Settled only after a 2xx answer; the receipt is in PAYMENT-RESPONSE. Prices: GET /v1/plans; the payable routes as x402 discovery resources: the link x-x402-discovery.",
  },
} as const;

/**
 * The OpenAPI 3.1.0 description of API version 2.2.0, generated from the routes mounted on `app`
 * (the route list's schemas), served from the public origin and the fallback host. Call it once every
 * route is mounted.
 */
export function openApiDocument(app: OpenAPIHono<AccessEnv>, origins: ServiceOrigins, x402DiscoveryUrl: string) {
  for (const [name, scheme] of Object.entries(securitySchemes)) {
    app.openAPIRegistry.registerComponent("securitySchemes", name, scheme);
  }
  const documented = app.openAPIRegistry.definitions.flatMap((d) => (d.type === "route" ? (d.route.tags ?? []) : []));
  const document = app.getOpenAPI31Document({
    openapi: "3.1.0",
    servers: [
      { url: origins.public, description: "The service" },
      ...(origins.fallback ? [{ url: origins.fallback, description: "Fallback host: the same API" }] : []),
    ],
    // The route groups that have a documented route, in their order: Swagger UI's sections.
    tags: Object.entries(routeGroups)
      .filter(([name]) => documented.includes(name))
      .map(([name, description]) => ({ name, description })),
    info: {
      title: "Base capability and market service",
      version: apiVersion,
      description: `Static bytecode capability observations, transaction preflight and sourced market data for Base (${baseNetwork}). Errors are JSON {error, message} with a stable code; beyond the statuses the product spec lists, a body over a route's size limit is 413 BODY_TOO_LARGE.`,
    },
  });
  // Agents and registries find the x402 discovery listing from the document.
  return { ...document, "x-x402-discovery": x402DiscoveryUrl };
}
