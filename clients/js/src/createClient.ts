import { type PaymentParameters, payWithX402, type SpendingBudget, usdcToAtomic } from "./payWithX402.js";
import { type Call, type CallKind, type RequestParameters, readJson, request } from "./request.js";
import type {
  Address,
  AuditResponse,
  DemoAuditResponse,
  DexMetrics,
  GasFees,
  Hex,
  IntentEnvelope,
  IssuedKey,
  KeySelf,
  Metered,
  Plans,
  ProductEvent,
  PurchaseIntent,
  PurchaseRequest,
  RevokeResult,
  SampleEnvelope,
  SampleIndex,
  SampleName,
  ScoreResponse,
  SignedClaim,
  Stats,
  StatsQuery,
  StatusReport,
  TokenPrice,
  TokenSymbol,
  TradeSimulation,
  TransactionPreflightRequest,
  TransactionPreflightResponse,
  WhaleSignals,
} from "./types.js";

export type ClientParameters = {
  /** The service's origin, e.g. `https://api.example.com`. */
  baseUrl: string;
  /** A replica serving the same API: idempotent reads move to it on a connection failure or a 502/503/504. */
  fallbackUrl?: string;
  /** Sent as `x-api-key` (never in the URL). */
  apiKey?: string;
  /** `OPERATOR_STATS_TOKEN`, sent as `Authorization: Bearer` on `stats` only. */
  operatorToken?: string;
  /** Per attempt; default 30 s. */
  timeoutMs?: number;
  /** Further attempts after a failure that may be repeated (see CallKind); default 2. */
  retries?: number;
  /** The longest `Retry-After` waited for before repeating; default 10 s. */
  maxRetryDelaySeconds?: number;
  /** Optional x402 payment of payable calls asked with `{pay: true}`. */
  payment?: PaymentParameters;
  fetch?: typeof fetch;
};

/** Options of a payable call: `pay` pays its x402 challenge instead of using the API key. */
export type PayableCallParameters = { pay?: boolean | { maxUsdc: string } };

/** What signs a wallet challenge with personal_sign: a viem account, or any object with these two members. */
export type MessageSigner = { readonly address: Address; signMessage(args: { message: string }): Promise<Hex> };

export type Client = ReturnType<typeof createClient>;

/**
 * A client of the service: one method per route, typed errors (see errors.ts), retries that honour
 * `Retry-After`, a fallback URL for idempotent reads, and optional x402 payment with spending caps.
 *
 * @example
 * const client = createClient({ baseUrl: "http://127.0.0.1:42069", apiKey });
 * const { data } = await client.tokenPrice("WETH");
 */
export function createClient(options: ClientParameters) {
  const transport: RequestParameters = {
    baseUrl: options.baseUrl,
    fallbackUrl: options.fallbackUrl,
    timeoutMs: options.timeoutMs ?? 30_000,
    retries: options.retries ?? 2,
    maxRetryDelaySeconds: options.maxRetryDelaySeconds ?? 10,
    fetch: options.fetch ?? globalThis.fetch.bind(globalThis),
  };
  const budget: SpendingBudget = {
    spent: 0n,
    max: options.payment?.maxTotalUsdc === undefined ? null : usdcToAtomic(options.payment.maxTotalUsdc),
  };
  const keyHeaders = (): Record<string, string> => (options.apiKey ? { "x-api-key": options.apiKey } : {});

  async function json<T>(kind: CallKind, method: Call["method"], path: string, body?: unknown, headers = keyHeaders()): Promise<T> {
    return (await readJson(await request(transport, { kind, method, path, headers, body }))) as T;
  }

  async function metered<T>(path: string, call: PayableCallParameters = {}): Promise<Metered<T>> {
    if (call.pay) {
      const payment = options.payment;
      if (!payment) throw new TypeError("pay needs the client's payment option (a signer and caps)");
      const caps = [payment.maxPerCallUsdc, ...(typeof call.pay === "object" ? [call.pay.maxUsdc] : [])].map(usdcToAtomic);
      const url = new URL(path, transport.baseUrl);
      const paid = await payWithX402(url, { accept: "application/json" }, payment, caps, budget, transport.timeoutMs, transport.fetch);
      return answer<T>(paid.response, paid.receipt);
    }
    return answer<T>(await request(transport, { kind: "metered", method: "GET", path, headers: keyHeaders() }), null);
  }

  const freeChallenge = (userWallet: Address) => json<IntentEnvelope>("write", "POST", "/v1/subscribe/free/challenge", { userWallet }, {});
  const freeClaim = (claim: SignedClaim) => json<IssuedKey>("write", "POST", "/v1/subscribe/free/claim", claim, {});
  const recoveryChallenge = (body: { userWallet: Address; txHash?: Hex }) =>
    json<IntentEnvelope>("write", "POST", "/v1/keys/recovery/challenge", body, {});
  const recoveryClaim = (claim: SignedClaim) => json<IssuedKey>("write", "POST", "/v1/keys/recovery/claim", claim, {});

  return {
    /** The options this client was made with, another key: `client.withApiKey(key).keySelf()`. */
    withApiKey: (apiKey: string) => createClient({ ...options, apiKey }),
    /** USDC (atomic units) this client has paid with x402 so far. */
    spentAtomicUsdc: () => budget.spent,

    status: () => json<StatusReport>("read", "GET", "/v1/status"),
    plans: () => json<Plans>("read", "GET", "/v1/plans"),
    samples: () => json<SampleIndex>("read", "GET", "/v1/samples"),
    sample: (name: SampleName) => json<SampleEnvelope>("read", "GET", `/v1/sample?${new URLSearchParams({ name })}`),
    /** Public stats, or the operator's aggregate view when the client has an `operatorToken`. */
    stats: (query: StatsQuery = {}) => {
      const params = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]));
      const headers: Record<string, string> = options.operatorToken ? { authorization: `Bearer ${options.operatorToken}` } : {};
      return json<Stats>("read", "GET", `/v1/stats${params.size ? `?${params}` : ""}`, undefined, headers);
    },
    sendEvent: (event: ProductEvent) => json<undefined>("write", "POST", "/v1/events", event, {}),
    demoAudit: (address: Address) => json<DemoAuditResponse>("read", "GET", `/v1/demo/audit/${segment(address)}`),

    audit: (address: Address, call?: PayableCallParameters) => metered<AuditResponse>(`/v1/audit/${segment(address)}`, call),
    score: (address: Address, call?: PayableCallParameters) => metered<ScoreResponse>(`/v1/security/score/${segment(address)}`, call),
    gasFees: (call?: PayableCallParameters) => metered<GasFees>("/v1/gas/fees", call),
    dexMetrics: (call?: PayableCallParameters) => metered<DexMetrics>("/v1/dex/metrics", call),
    tokenPrice: (symbol: TokenSymbol | (string & {}), call?: PayableCallParameters) =>
      metered<TokenPrice>(`/v1/token/price/${segment(symbol)}`, call),
    whaleSignals: (call?: PayableCallParameters) => metered<WhaleSignals>("/v1/whales/signals", call),
    /** A buy, a transfer and a sell of any ERC-20 on Base, simulated at a pinned block (2 credits, or 0.01 USDC). */
    tokenSimulation: (address: Address, call?: PayableCallParameters) =>
      metered<TradeSimulation>(`/v1/token/simulation/${segment(address)}`, call),
    /** API key (or marketplace gateway) only: preflight is not x402-payable. Charged once a valid answer is ready. */
    preflight: async (body: TransactionPreflightRequest) =>
      answer<TransactionPreflightResponse>(
        await request(transport, { kind: "write", method: "POST", path: "/v1/transaction/preflight", headers: keyHeaders(), body }),
        null,
      ),

    freeChallenge,
    freeClaim,
    /** The whole free-key flow: a challenge for the signer's wallet, personal_sign, the claim. */
    claimFreeKey: async (signer: MessageSigner) => freeClaim(await signChallenge(await freeChallenge(signer.address), signer)),
    /** Renewal (`renewExistingKey: true`) presents this client's key. */
    purchaseIntent: (purchase: PurchaseRequest) =>
      json<PurchaseIntent>("write", "POST", "/v1/subscribe/intents", purchase, purchase.renewExistingKey ? keyHeaders() : {}),
    /** Redeems the intent's on-chain payment (3 confirmations): a new key, or the renewed key's new expiry. */
    claimPurchase: (claim: SignedClaim & { txHash: Hex }) => json<IssuedKey>("write", "POST", "/v1/subscribe/crypto", claim, {}),
    keySelf: () => json<KeySelf>("read", "GET", "/v1/keys/self"),
    revokeKey: () => json<RevokeResult>("write", "POST", "/v1/keys/revoke", { confirm: true }),
    recoveryChallenge,
    recoveryClaim,
    /** The whole recovery flow for the signer's wallet: challenge, personal_sign, claim (a replacement key, shown once). */
    recoverKey: async (signer: MessageSigner, txHash?: Hex) =>
      recoveryClaim(await signChallenge(await recoveryChallenge({ userWallet: signer.address, ...(txHash ? { txHash } : {}) }), signer)),
  };
}

/** Signs an envelope's `messageToSign` with personal_sign: the claim body. */
export async function signChallenge(
  { intent }: { intent: { intentId: string; messageToSign: string } },
  signer: MessageSigner,
): Promise<SignedClaim> {
  return { intentId: intent.intentId, signature: await signer.signMessage({ message: intent.messageToSign }) };
}

/** A path segment, encoded so a value can never leave its segment. */
function segment(value: string): string {
  return encodeURIComponent(value);
}

async function answer<T>(response: Response, receipt: Metered<T>["receipt"]): Promise<Metered<T>> {
  const number = (name: string) => {
    const value = response.headers.get(name);
    return value === null ? null : Number(value);
  };
  return {
    data: (await readJson(response)) as T,
    receipt,
    creditsRemaining: number("x-credits-remaining"),
    rateLimitRemaining: number("x-ratelimit-remaining"),
    rpcProvider: response.headers.get("x-service-rpc-provider"),
    trustLevel: response.headers.get("x-service-trust-level"),
  };
}
