/**
 * Statuses we answer beyond the spec's list, each with why (the README's API reference names them):
 * every route refuses a credential in its URL (401), every JSON body has a size cap (413), every
 * unauthenticated route is limited per client address (429).
 */
export const additions: Record<string, { status: number; why: string }[]> = {
  "GET /v1/status": [
    { status: 401, why: "a credential in the query string" },
    { status: 429, why: "limited per client address" },
  ],
  "GET /v1/stats": [
    { status: 400, why: "days outside 1..400 or not an integer" },
    { status: 503, why: "the app store holding the counters is unreachable" },
  ],
  "POST /v1/events": [
    { status: 401, why: "a credential in the query string" },
    { status: 413, why: "body cap (1 KiB)" },
  ],
  "GET /v1/samples": [
    { status: 401, why: "a credential in the query string" },
    { status: 429, why: "limited per client address" },
  ],
  "GET /v1/sample": [
    { status: 400, why: "name missing" },
    { status: 401, why: "a credential in the query string" },
    { status: 429, why: "limited per client address" },
  ],
  "GET /v1/plans": [
    { status: 401, why: "a credential in the query string" },
    { status: 429, why: "limited per client address" },
  ],
  "GET /v1/demo/audit/{address}": [
    { status: 401, why: "a credential in the query string" },
    { status: 429, why: "limited per client address" },
  ],
  "GET /v1/operator/gateway-proxy-digest": [{ status: 429, why: "limited per client address, and failed tokens per address" }],
  "POST /v1/subscribe/free/challenge": [
    { status: 401, why: "a credential in the query string" },
    { status: 413, why: "body cap" },
  ],
  "POST /v1/subscribe/free/claim": [{ status: 413, why: "body cap" }],
  "POST /v1/subscribe/intents": [{ status: 413, why: "body cap" }],
  "POST /v1/subscribe/crypto": [
    { status: 401, why: "a credential in the query string" },
    { status: 413, why: "body cap" },
  ],
  "POST /v1/transaction/preflight": [{ status: 413, why: "body cap" }],
  "POST /v1/keys/revoke": [{ status: 413, why: "body cap" }],
  "POST /v1/keys/recovery/challenge": [
    { status: 401, why: "a credential in the query string" },
    { status: 413, why: "body cap" },
  ],
  "POST /v1/keys/recovery/claim": [{ status: 413, why: "body cap" }],
  "GET /v1/token/price/{symbol}": [
    { status: 400, why: "a symbol longer than 32 characters (any shorter untracked one is 404); a malformed x402 payment-identifier id" },
    { status: 409, why: "an x402 payment-identifier id used for another request, or a payment whose settlement is pending" },
  ],
  "GET /v1/audit/{address}": [
    { status: 409, why: "an x402 payment-identifier id used for another request, or a payment whose settlement is pending" },
  ],
  "GET /v1/security/score/{address}": [
    { status: 409, why: "an x402 payment-identifier id used for another request, or a payment whose settlement is pending" },
  ],
  "GET /v1/gas/fees": [
    { status: 400, why: "a malformed x402 payment-identifier id" },
    { status: 409, why: "an x402 payment-identifier id used for another request, or a payment whose settlement is pending" },
  ],
  "GET /v1/dex/metrics": [
    { status: 400, why: "a malformed x402 payment-identifier id" },
    { status: 409, why: "an x402 payment-identifier id used for another request, or a payment whose settlement is pending" },
  ],
  "GET /v1/whales/signals": [
    { status: 400, why: "a malformed x402 payment-identifier id" },
    { status: 409, why: "an x402 payment-identifier id used for another request, or a payment whose settlement is pending" },
  ],
};

/** Statuses the spec lists that we do not answer, each with the decision behind it. */
export const omissions: Record<string, { status: number; why: string }[]> = {
  "GET /v1/keys/self": [{ status: 402, why: "an expired key may describe itself (KeySelf status EXPIRED); the route costs no credit" }],
  "POST /v1/keys/revoke": [{ status: 402, why: "an expired key may revoke itself; the route costs no credit" }],
};
