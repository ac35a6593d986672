import { z } from "zod";
import { baseNetwork } from "../../base/baseChain";
import { IntentEnvelope, IssuedKey, KeySelf, Plans, PurchaseIntent, RecoveryIntent, RevokeResult } from "../access/records";
import { AuditResponse, ScoreResponse } from "../capability/AuditResponse";
import { TransactionPreflightRequest } from "../capability/preflightTransaction";
import { TransactionPreflightResponse } from "../capability/TransactionPreflightResponse";
import { StatusReport } from "../health/StatusReport";
import { ClaimBody, CryptoClaimBody, FreeChallengeBody, PurchaseBody, RecoveryChallengeBody, RevokeBody } from "../routes/accessRequests";

/** `{error, message}` on every error status; some errors add fields (`issues`, `observationBlock`, ...). */
export const ErrorBody = z.looseObject({ error: z.string(), message: z.string() });

type Operation = {
  summary: string;
  description?: string;
  security?: Record<string, string[]>[];
  parameters?: unknown[];
  requestBody?: z.ZodType;
  responses: Record<number, { description: string; schema?: z.ZodType; headers?: string[] }>;
};

const jsonSchema = (schema: z.ZodType, io: "input" | "output") =>
  z.toJSONSchema(schema, { target: "draft-2020-12", io, unrepresentable: "any" });

const provenanceHeaders = ["X-Service-RPC-Provider", "X-Service-Trust-Level"];
const accessHeaders = ["X-RateLimit-Remaining", "X-Credits-Remaining"];
const addressParameter = {
  name: "address",
  in: "path",
  required: true,
  description: "Contract or account address, checksummed or lowercase.",
  schema: { type: "string", pattern: "^0x[0-9a-fA-F]{40}$" },
};
const apiKeyOrX402: Record<string, string[]>[] = [{ apiKeyHeader: [] }, { bearer: [] }, { x402: [] }];
const errors = (...statuses: number[]) =>
  Object.fromEntries(statuses.map((s) => [s, { description: errorDescriptions[s] ?? "error", schema: ErrorBody }]));
const errorDescriptions: Record<number, string> = {
  400: "Malformed input",
  401: "Missing or invalid credential, or a credential in the query string",
  402: "No credential on a payable route (PAYMENT-REQUIRED header), or the cycle's credits are spent",
  404: "Not found (the operator bootstrap route is 404 unless configured)",
  405: "Method not allowed",
  409: "Conflict: the wallet's free key exists, or a recovery challenge was consumed or its target changed",
  429: "Rate limited (Retry-After gives seconds)",
  503: "A dependency is unavailable (DATA_SOURCE_UNAVAILABLE): never a guessed value",
};

/** Every route of the API, described from the same zod schemas the service uses. */
const routes: Record<string, Record<string, Operation>> = {
  "/v1/status": {
    get: {
      summary: "Live status of persistence, Base RPC trust, the index and verdict quality",
      responses: {
        200: { description: "Status", schema: StatusReport },
        503: { description: "Persistence and RPC both unreachable (same body)", schema: StatusReport },
      },
    },
  },
  "/v1/openapi.json": {
    get: { summary: "This document", responses: { 200: { description: "OpenAPI 3.1.0" } } },
  },
  "/v1/demo/audit/{address}": {
    get: {
      summary: "Free demo: full evidence for published samples, a tiered preview for any other address",
      parameters: [addressParameter],
      responses: {
        200: { description: "AuditResponse with `demo`, or a PREVIEW record", headers: provenanceHeaders },
        ...errors(400, 429, 503),
      },
    },
  },
  "/v1/audit/{address}": {
    get: {
      summary: "Capability observations, proxy resolution and coverage index of one address",
      security: apiKeyOrX402,
      parameters: [addressParameter],
      responses: {
        200: { description: "AuditResponse", schema: AuditResponse, headers: [...provenanceHeaders, ...accessHeaders] },
        ...errors(400, 401, 402, 405, 429, 503),
      },
    },
  },
  "/v1/security/score/{address}": {
    get: {
      summary: "Coverage index with its deduction breakdown (legacy URL)",
      security: apiKeyOrX402,
      parameters: [addressParameter],
      responses: {
        200: { description: "ScoreResponse", schema: ScoreResponse, headers: [...provenanceHeaders, ...accessHeaders] },
        ...errors(400, 401, 402, 429, 503),
      },
    },
  },
  "/v1/transaction/preflight": {
    post: {
      summary: "Transaction preflight evidence at a pinned block (API key or marketplace gateway; not x402)",
      description:
        "One decision credit, charged only after a valid evidence-grade answer is prepared. 503 when evidence grade cannot be reached.",
      security: [{ apiKeyHeader: [] }, { bearer: [] }, { gatewayKey: [] }],
      requestBody: TransactionPreflightRequest,
      responses: {
        200: {
          description: "TransactionPreflightResponse",
          schema: TransactionPreflightResponse,
          headers: [...provenanceHeaders, ...accessHeaders],
        },
        ...errors(400, 401, 402, 405, 429, 503),
      },
    },
  },
  "/v1/plans": {
    get: {
      summary: "The authoritative plan and price catalogue",
      responses: { 200: { description: "Plans", schema: Plans, headers: ["X-RateLimit-Remaining"] }, ...errors(429) },
    },
  },
  "/v1/subscribe/free/challenge": {
    post: {
      summary: "A challenge for the wallet's one free key (sign messageToSign with personal_sign)",
      requestBody: FreeChallengeBody,
      responses: { 200: { description: "IntentEnvelope", schema: IntentEnvelope }, ...errors(400, 429, 503) },
    },
  },
  "/v1/subscribe/free/claim": {
    post: {
      summary: "The free key for a valid signature over the challenge (raw key shown once)",
      requestBody: ClaimBody,
      responses: { 200: { description: "IssuedKey", schema: IssuedKey }, ...errors(400, 401, 409, 429, 503) },
    },
  },
  "/v1/subscribe/intents": {
    post: {
      summary: "A purchase intent freezing the exact USDC (and wei, with a live quote) amount, duration and renewal target for 15 minutes",
      description: "With renewExistingKey the active same-tier paid key is presented in x-api-key.",
      requestBody: PurchaseBody,
      responses: { 200: { description: "PurchaseIntent", schema: PurchaseIntent }, ...errors(400, 401, 429, 503) },
    },
  },
  "/v1/subscribe/crypto": {
    post: {
      summary: "Redeems a payment with 3 confirmations for a purchase intent: a new key, or the renewal target's expiry extended",
      requestBody: CryptoClaimBody,
      responses: { 200: { description: "IssuedKey", schema: IssuedKey }, ...errors(400, 429, 503) },
    },
  },
  "/v1/keys/self": {
    get: {
      summary: "Metadata and credits of the presented API key (never its secret; x402 cannot use this route)",
      security: [{ apiKeyHeader: [] }, { bearer: [] }],
      responses: { 200: { description: "KeySelf", schema: KeySelf, headers: accessHeaders }, ...errors(401, 429, 503) },
    },
  },
  "/v1/keys/revoke": {
    post: {
      summary: "Revokes the presented API key permanently (body {confirm: true})",
      security: [{ apiKeyHeader: [] }, { bearer: [] }],
      requestBody: RevokeBody,
      responses: { 200: { description: "Revoke result", schema: RevokeResult }, ...errors(400, 401, 429, 503) },
    },
  },
  "/v1/keys/recovery/challenge": {
    post: {
      summary: "A recovery challenge: 202 with an identical structure whether or not the wallet holds a recoverable key",
      requestBody: RecoveryChallengeBody,
      responses: { 202: { description: "RecoveryIntent", schema: RecoveryIntent }, ...errors(400, 429, 503) },
    },
  },
  "/v1/keys/recovery/claim": {
    post: {
      summary: "Replaces a paid key's secret atomically (tier and expiry kept; the replacement is shown once)",
      requestBody: ClaimBody,
      responses: { 200: { description: "IssuedKey (REPLACED)", schema: IssuedKey }, ...errors(400, 401, 409, 429, 503) },
    },
  },
  "/v1/operator/gateway-proxy-digest": {
    get: {
      summary: "SHA-256 digest of the marketplace proxy secret, for GATEWAY_PROXY_SECRET_SHA256 (operator bootstrap)",
      description:
        "404 unless OPERATOR_BOOTSTRAP_TOKEN (at least 32 characters) is configured. Headers: x-operator-bootstrap, x-gateway-proxy-secret, and at least one of x-gateway-user, x-gateway-subscription, x-gateway-host, x-gateway-key.",
      responses: {
        200: { description: "{sha256}", schema: z.object({ sha256: z.string().regex(/^[0-9a-f]{64}$/) }) },
        ...errors(400, 401, 404, 429),
      },
    },
  },
};

/** The OpenAPI 3.1.0 description of API version 2.2.0. */
export function openApiDocument() {
  const paths = Object.fromEntries(
    Object.entries(routes).map(([path, methods]) => [
      path,
      Object.fromEntries(
        Object.entries(methods).map(([method, op]) => [
          method,
          {
            summary: op.summary,
            ...(op.description ? { description: op.description } : {}),
            ...(op.security ? { security: op.security } : {}),
            ...(op.parameters ? { parameters: op.parameters } : {}),
            ...(op.requestBody
              ? { requestBody: { required: true, content: { "application/json": { schema: jsonSchema(op.requestBody, "input") } } } }
              : {}),
            responses: Object.fromEntries(
              Object.entries(op.responses).map(([status, r]) => [
                status,
                {
                  description: r.description,
                  ...(r.headers ? { headers: Object.fromEntries(r.headers.map((h) => [h, { schema: { type: "string" } }])) } : {}),
                  ...(r.schema ? { content: { "application/json": { schema: jsonSchema(r.schema, "output") } } } : {}),
                },
              ]),
            ),
          },
        ]),
      ),
    ]),
  );
  return {
    openapi: "3.1.0",
    info: { title: "Base capability and market service", version: "2.2.0" },
    paths,
    components: {
      securitySchemes: {
        apiKeyHeader: { type: "apiKey", in: "header", name: "x-api-key" },
        bearer: { type: "http", scheme: "bearer" },
        gatewayKey: {
          type: "apiKey",
          in: "header",
          name: "x-gateway-key",
          description: "Marketplace gateway; the origin also requires the private proxy-secret boundary",
        },
        x402: {
          type: "apiKey",
          in: "header",
          name: "PAYMENT-SIGNATURE",
          description: `x402 v2 payment (${baseNetwork}, USDC): a 402 answer carries the PAYMENT-REQUIRED challenge`,
        },
      },
    },
  };
}

/** The (method, path) pairs the document describes, in Hono's `:param` form, for checking it against the app. */
export function documentedRoutes(): { method: string; path: string }[] {
  return Object.entries(routes).flatMap(([path, methods]) =>
    Object.keys(methods).map((method) => ({ method: method.toUpperCase(), path: path.replace(/\{(\w+)\}/g, ":$1") })),
  );
}
