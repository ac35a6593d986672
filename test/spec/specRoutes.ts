/**
 * The product spec's endpoint table ("Endpoints"), transcribed once: the repository's copy of it, each
 * route with the statuses the spec lists for it. REST routes only (MCP has its own tests).
 */
export const specRoutes = [
  { route: "GET /v1/status", statuses: [200, 503] },
  { route: "GET /v1/stats", statuses: [200, 401, 429] },
  { route: "POST /v1/events", statuses: [202, 400, 429] },
  { route: "GET /v1/plans", statuses: [200] },
  { route: "GET /v1/samples", statuses: [200] },
  { route: "GET /v1/sample", statuses: [200, 404] },
  { route: "GET /v1/demo/audit/{address}", statuses: [200, 400, 503] },
  { route: "GET /v1/operator/gateway-proxy-digest", statuses: [200, 400, 401, 404] },
  { route: "POST /v1/subscribe/free/challenge", statuses: [200, 400, 429, 503] },
  { route: "POST /v1/subscribe/free/claim", statuses: [200, 400, 401, 409, 429, 503] },
  { route: "POST /v1/subscribe/intents", statuses: [200, 400, 401, 429, 503] },
  { route: "POST /v1/subscribe/crypto", statuses: [200, 400, 429, 503] },
  { route: "GET /v1/audit/{address}", statuses: [200, 400, 401, 402, 405, 429, 503] },
  { route: "POST /v1/transaction/preflight", statuses: [200, 400, 401, 402, 405, 429, 503] },
  { route: "GET /v1/security/score/{address}", statuses: [200, 400, 401, 402, 429, 503] },
  { route: "GET /v1/gas/fees", statuses: [200, 401, 402, 429, 503] },
  { route: "GET /v1/dex/metrics", statuses: [200, 401, 402, 429, 503] },
  { route: "GET /v1/token/price/{symbol}", statuses: [200, 404, 401, 402, 429, 503] },
  { route: "GET /v1/whales/signals", statuses: [200, 401, 402, 429, 503] },
  { route: "GET /v1/keys/self", statuses: [200, 401, 402, 429, 503] },
  { route: "POST /v1/keys/revoke", statuses: [200, 400, 401, 402, 429, 503] },
  { route: "POST /v1/keys/recovery/challenge", statuses: [202, 400, 429, 503] },
  { route: "POST /v1/keys/recovery/claim", statuses: [200, 400, 401, 409, 429, 503] },
] as const;

/** Spec routes not built yet, with the issue that builds them: each answers 404 until it lands. */
export const pendingSpecRoutes: readonly { route: string; issue: number }[] = [];
