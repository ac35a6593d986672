import { createRoute, type RouteConfig } from "@hono/zod-openapi";
import { z } from "zod";
import { type ErrorCode, errorCodes } from "../errors";
import type { RouteGroup } from "./routeGroups";

/** Who may call a route: the spec's credential rules, one word each. */
export type AccessPolicy = "public" | "apiKey" | "apiKeyOrX402" | "apiKeyOrGateway" | "operator";

/** `{error, message}` on every error status; some errors add fields (`issues`, `observationBlock`, `retryable`, ...). */
export const ErrorBody = z.looseObject({ error: z.string(), message: z.string() }).meta({ id: "ErrorBody" });

/** Largest JSON body a route accepts unless its definition says otherwise. */
export const defaultMaxBodyBytes = 64 * 1024;

/** The request schemas of a route, in `@hono/zod-openapi`'s shape (a JSON body through `jsonRequestBody`). */
type RequestSchemas = NonNullable<RouteConfig["request"]>;

/** A required JSON request body validated by `schema`. */
export function jsonRequestBody<S extends z.ZodType>(schema: S) {
  return { content: { "application/json": { schema } }, required: true } as const;
}

type SuccessResponse = { description: string; schema?: z.ZodType; headers?: readonly string[] };

export type RouteDefinitionInput = {
  method: "get" | "post";
  /** OpenAPI form, parameters as `{name}`. */
  path: string;
  summary: string;
  description?: string;
  /** Its section in the OpenAPI document (the operation's one tag). */
  group: RouteGroup;
  access: AccessPolicy;
  /** Credits an API key is charged per 2xx answer (0: none). */
  credits?: number;
  /** Per-call x402 price in USD (USDC on Base), for `apiKeyOrX402` routes. */
  x402PriceUsd?: number;
  /**
   * Public routes are limited per client address, from the keyless routes' shared budget, or from the MCP
   * endpoints' own with "MCP"; false: not limited.
   */
  rateLimited?: boolean | "MCP";
  /** The route's services use the app store: wait for its migrations (503 when it cannot be opened). */
  appStore?: boolean;
  /** The route stores an intent: limited per client address an hour (429 INTENT_RATE_LIMITED). */
  createsIntent?: boolean;
  /** Its 2xx answers are counted per day by how they were paid (the stats' SERVED counters). */
  counted?: boolean;
  request?: RequestSchemas;
  /** Largest body accepted (413 BODY_TOO_LARGE beyond it); default 64 KiB. */
  maxBodyBytes?: number;
  /** The answers a caller can act on, by status. */
  responses: Partial<Record<200 | 202 | 503, SuccessResponse>>;
  /** Every error code the route can answer; their statuses are listed in the OpenAPI document. */
  errors: readonly ErrorCode[];
  /** Served, but left out of the OpenAPI document (an alias). */
  hidden?: boolean;
};

/** One route: the table's entry, and the `@hono/zod-openapi` route the app and the document are built from. */
export type RouteDefinition<Input extends RouteDefinitionInput = RouteDefinitionInput> = Input & {
  /** `GET /v1/audit/{address}`: how plans and messages name the route. */
  name: string;
  openapi: Omit<RouteConfig, "request" | "responses"> & {
    request: Input["request"] extends RequestSchemas ? Input["request"] : Record<never, never>;
    responses: RouteConfig["responses"];
  };
};

const securityOf: Record<AccessPolicy, RouteConfig["security"]> = {
  public: undefined,
  apiKey: [{ apiKeyHeader: [] }, { bearer: [] }],
  apiKeyOrX402: [{ apiKeyHeader: [] }, { bearer: [] }, { x402: [] }],
  apiKeyOrGateway: [{ apiKeyHeader: [] }, { bearer: [] }, { gatewayKey: [] }],
  operator: [{ operatorBootstrap: [] }],
};

/** What per-call x402 payment can answer on every `apiKeyOrX402` route, beside the route's own errors. */
const perCallPaymentErrors = [
  "PAYMENT_REQUIRED",
  "PAYMENT_INVALID",
  "PAYMENT_SETTLEMENT_FAILED",
  "PAYMENT_FACILITATOR_UNAVAILABLE",
  "PAYMENT_ID_INVALID",
  "PAYMENT_ID_CONFLICT",
  "PAYMENT_PENDING",
] as const;

/** Headers of per-call payment: the challenge on a 402, the settlement receipt on a paid answer or a failed settlement. */
const perCallPaymentHeaders = { 200: ["PAYMENT-RESPONSE"], 402: ["PAYMENT-REQUIRED", "PAYMENT-RESPONSE"] } as const;

/** Defines a route once: the app mounts it, the OpenAPI document, the plans and the spec test read it. */
export function defineRoute<const Input extends RouteDefinitionInput>(input: Input): RouteDefinition<Input> {
  const payable = input.access === "apiKeyOrX402";
  const errors = [...new Set([...input.errors, ...(payable ? perCallPaymentErrors : [])])];
  const price = payable && input.x402PriceUsd !== undefined ? `Or pay per call with x402: ${input.x402PriceUsd} USDC on Base.` : undefined;
  const description = [input.description, price].filter(Boolean).join(" ");
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of errors) {
    const status = errorCodes[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const responses: RouteConfig["responses"] = {};
  for (const [status, r] of Object.entries(input.responses) as [string, SuccessResponse][]) {
    const headers = [...(r.headers ?? []), ...(payable && status === "200" ? perCallPaymentHeaders[200] : [])];
    responses[status] = {
      description: r.description,
      ...(headers.length > 0 ? { headers: headersOf(headers) } : {}),
      ...(r.schema ? { content: { "application/json": { schema: r.schema } } } : {}),
    };
  }
  for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b)) {
    responses[String(status)] = {
      description: codes.map((code) => `\`${code}\`: ${errorCodes[code].description}`).join("; "),
      ...(status === 429 ? { headers: headersOf(["Retry-After"]) } : {}),
      ...(status === 402 && payable ? { headers: headersOf(perCallPaymentHeaders[402]) } : {}),
      content: { "application/json": { schema: ErrorBody } },
    };
  }
  const openapi = createRoute({
    method: input.method,
    path: input.path,
    summary: input.summary,
    tags: [input.group],
    ...(description ? { description } : {}),
    ...(securityOf[input.access] ? { security: securityOf[input.access] } : {}),
    ...(input.hidden ? { hide: true } : {}),
    request: input.request ?? {},
    responses,
  });
  return { ...input, errors, name: `${input.method.toUpperCase()} ${input.path}`, openapi } as unknown as RouteDefinition<Input>;
}

const headerDescriptions: Record<string, string> = {
  "X-Service-RPC-Provider": "The RPC provider the observation block was pinned with",
  "X-Service-Trust-Level": "TRUSTED_PRIMARY, PUBLIC_QUORUM or UNVERIFIED",
  "X-RateLimit-Remaining": "Requests left in the current minute",
  "X-Credits-Remaining": "Credits the key can spend now (the cycle's, capped by the day's for free keys)",
  "Retry-After": "Seconds to wait",
  "PAYMENT-REQUIRED":
    "x402 v2 challenge, base64 of JSON PaymentRequired: {x402Version: 2, error, resource, accepts: [{scheme: exact, network, amount, asset, payTo, maxTimeoutSeconds, extra}]}",
  "PAYMENT-RESPONSE": "x402 v2 settlement receipt, base64 of JSON SettleResponse: {success, transaction, network, payer?, errorReason?}",
};

function headersOf(names: readonly string[]) {
  return Object.fromEntries(names.map((h) => [h, { description: headerDescriptions[h] ?? h, schema: { type: "string" as const } }]));
}
