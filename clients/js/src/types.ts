/**
 * The answers' types, written by hand from the service's OpenAPI document (`GET /v1/openapi.json`):
 * the fields a caller reads are spelled out; deep evidence records are left open (`Record<string, unknown>`)
 * so that a field the service adds never breaks a caller.
 */

export type Address = `0x${string}`;
export type Hex = `0x${string}`;
export type TrustLevel = "TRUSTED_PRIMARY" | "PUBLIC_QUORUM" | "UNVERIFIED";
export type PaidTier = "STARTER" | "GROWTH" | "PRO";
export type Tier = "FREE" | PaidTier;
export type TokenSymbol = "USDC" | "WETH" | "cbBTC" | "AERO" | "EURC" | "VIRTUAL" | "ETH" | "DEGEN" | "TOSHI" | "USDT" | "DAI";

export type StatusReport = {
  status: "OPERATIONAL" | "DEGRADED" | "UNAVAILABLE";
  apiVersion: string;
  checkedAt: string;
  chain: { chainId: number; network: string; source: "devnet" | "base-mainnet" };
  persistence: Record<"indexStore" | "appStore", { available: boolean; latencyMs: number; error?: string }>;
  rpc: { available: boolean; trustLevel: TrustLevel; reason: string | null; providers: Record<string, unknown>[] };
  index: {
    headBlock: number | null;
    headBlockHash: string | null;
    headTimestamp: string | null;
    chainHeadBlock: number | null;
    lagBlocks: number | null;
    maxLagBlocks: number;
    stale: boolean;
  };
  verdictQuality: "EVIDENCE_GRADE" | "UNVERIFIED";
  paymentSettlement: {
    payoutAddress: string | null;
    subscriptionPayments: "AVAILABLE" | "UNAVAILABLE";
    confirmationsRequired: number;
    x402: "AVAILABLE" | "UNAVAILABLE" | "NOT_CONFIGURED";
    x402Facilitator: "IN_PROCESS" | "REMOTE" | null;
    x402Reason: string | null;
  };
};

export type Entitlements = { creditsPerCycle: number; cycleDays: number; dailyLimit: number | null; rateLimitPerMinute: number };

export type Plans = {
  currency: "USD";
  creditCycleDays: number;
  plans: { tier: Tier; entitlements: Entitlements; prices: { durationDays: 31 | 90 | 365; priceUsd: string; amountUsdc: string }[] }[];
  payment: {
    network: string;
    payTo: Address | null;
    usdc: { asset: Address; decimals: number };
    eth: string;
    confirmationsRequired: number;
    intentValidityMinutes: number;
  };
  credits: { route: string; credits: number }[];
  x402: { route: string; priceUsd: number }[];
};

export type SampleName = "gas-fees" | "dex-metrics" | "token-price" | "whale-signals" | "transaction-preflight";
export type SampleIndex = { status: string; description: string; samples: { name: string; url: string }[]; note: string };
export type SampleEnvelope = {
  status: "SAMPLE";
  sample: true;
  capturedAt: string;
  paidRoute: string;
  response: Record<string, unknown>;
  note?: string;
  priceUsd?: number | null;
  currency?: string | null;
  network?: string;
  access?: string;
};

/** `GET /v1/stats` without operator authorization: which counters moved in the window, never a figure. */
export type PublicStats = { view: "PUBLIC"; days: number; from: string; to: string; activeCounters: string[]; note: string };
/** `GET /v1/stats` with the operator token: exact identifier-free daily counters of one bucket. */
export type AggregateStats = {
  view: "OPERATOR";
  bucket: "production" | "test";
  days: number;
  from: string;
  to: string;
  totals: Record<string, number>;
  daily: { day: string; counts: Record<string, number> }[];
};
export type Stats = PublicStats | AggregateStats;
export type StatsQuery = { days?: number; bucket?: "production" | "test" };
export type ProductPage = "home" | "docs";
export type ProductCta = "runDemoAudit" | "getFreeKey" | "payPerCall" | "connectMcp" | "viewPlans" | "openDocs" | "viewStatus";
/** `POST /v1/events`: a page view or a click on a call to action, with fixed enum dimensions only. */
export type ProductEvent = { event: "pageViewed"; page: ProductPage } | { event: "ctaClicked"; page: ProductPage; cta: ProductCta };

/** The block an observation was pinned at (null fields: it could not be pinned at evidence grade). */
export type ObservationBlock = {
  status: "PINNED" | "UNPINNED";
  chainId: number;
  network: string;
  blockNumber: number | null;
  blockHash: Hex | null;
  blockTag: string | null;
  trustLevel: TrustLevel;
  evidenceGrade: boolean;
  providerName: string | null;
  agreement: number;
  sampled: number;
  reason: string | null;
  retrievedAt: string;
  originalRetrievalTime: string;
};

export type CapabilityRating =
  | "MINIMAL_SURFACE"
  | "LIMITED_SURFACE"
  | "SUBSTANTIAL_SURFACE"
  | "EXTENSIVE_SURFACE"
  | "NOT_A_CONTRACT"
  | "UNVERIFIED";

export type Deduction = { type: string; points: number; occurrences: number; sources: string[]; evidence: string };

type Observation = {
  address: Address;
  chainId: number;
  network: string;
  notASafetyGuarantee: true;
  capabilityRating: CapabilityRating;
  /** Null exactly when the rating is UNVERIFIED. */
  capabilityScore: number | null;
  evidenceGrade: boolean;
  evidenceStatus: "VERIFIED" | "UNVERIFIED";
  effectiveTrust: TrustLevel;
  observationBlock: ObservationBlock;
  limitations: string[];
};

export type AuditResponse = Observation & {
  status: "SUCCESS";
  operation: "CONTRACT_CAPABILITY_OBSERVATION";
  isContract: boolean;
  score: { maxScore: 100; deductions: Deduction[] };
  resolvedExecutionTarget: Address;
  resolvedImplementation: Address | null;
  resolvedFacet: Address | null;
  resolution: Record<string, unknown>;
  capabilities: Record<string, unknown>[];
  detectedCapabilities: string[];
  dissections: Record<string, unknown>[];
  reachability: "NOT_ESTABLISHED";
  rpcObservation: Record<string, unknown>;
};

export type ScoreResponse = Observation & { maxScore: 100; deductions: Deduction[] };

/** `GET /v1/demo/audit/{address}`: full evidence (with `demo`) for a published sample, else a tiered preview. */
export type DemoAuditResponse = Record<string, unknown>;

export type TransactionPreflightRequest = {
  chainId: 8453;
  to: Address;
  data?: Hex;
  from?: Address;
  value?: Hex;
  blockNumber?: number;
};
export type TransactionPreflightResponse = {
  status: string;
  operation: string;
  selectorHex: string | null;
  surfaceTarget: Address;
  resolvedExecutionTarget: Address;
  resolvedImplementation: Address | null;
  resolvedFacet: Address | null;
  evidenceGrade: boolean;
  evidenceStatus: string;
  observationBlock: ObservationBlock;
  notASafetyGuarantee: true;
  [field: string]: unknown;
};

export type MarketProvenance = {
  source: "RPC" | "INDEX";
  observationBlock: ObservationBlock;
  index: { headBlock: number; headHash: string; headTimestamp: string; lagBlocks: number; maxLagBlocks: number } | null;
};
export type WeiAmount = { wei: string; gwei: string };

export type GasFees = {
  chainId: number;
  network: string;
  gasPrice: WeiAmount;
  baseFee: { observationBlock: WeiAmount; nextBlock: WeiAmount };
  priorityFees: { fromBlock: number; toBlock: number; blockCount: number; percentiles: ({ percentile: number } & WeiAmount)[] };
  gasUsedRatio: { min: number; mean: number; max: number };
  l1DataFee: Record<string, unknown>;
  reads: { providers: string[]; reused: boolean };
  provenance: MarketProvenance;
};

type DexFigures = { pools: number; reserveUsd: string; depthUsd: string; volumeUsd: string };
export type DexMetrics = {
  totals: DexFigures;
  byDex: ({ dex: string } & DexFigures)[];
  volumeWindow: { from: string; to: string; seconds: number };
  coverage: {
    scope: "TRACKED_POOLS";
    /** The price route's pools: every planned pool verified on chain and indexed. */
    poolSet: "VERIFIED_CANDIDATES";
    /** Planned pools by outcome: `indexed` = `pools` + the sum of `excluded`. */
    candidates: { indexed: number; watched: number; refused: number };
    tokens: { symbol: string; address: string; priceUsd: string }[];
    dexes: string[];
    pools: number;
    /** The pools summed (address, or a V4 pool's id), sorted. */
    summedPools: string[];
    hookedPools: string[];
    excluded: Record<string, number>;
  };
  provenance: MarketProvenance;
};

export type TokenPrice = {
  symbol: TokenSymbol;
  token: { symbol: string; address: string; decimals: number };
  priceUsd: string;
  basis: "MEDIAN_OF_DEEPEST_POOLS";
  route: "STABLECOIN" | "VIA_WETH" | "MIXED";
  wethPriceUsd: string | null;
  spread: { minUsd: string; maxUsd: string; bps: string };
  minDepthUsd: string;
  maxPools: number;
  /** How many pools the median rests on. */
  poolCount: number;
  /** True when fewer than three pools: one pool's price then moves the answer by itself. */
  fewerThanThreePools: boolean;
  pools: Record<string, unknown>[];
  excluded: Record<string, unknown>[];
  excludedCount: number;
  provenance: MarketProvenance;
};

/** A pool of a simulated token against USDC or WETH, found by address derivation at the pinned block. */
export type SimulationPool = {
  address: Address;
  dex: "uniswap-v2" | "aerodrome-volatile" | "aerodrome-stable" | "uniswap-v3" | "slipstream" | "uniswap-v4";
  /** A Uniswap V4 pool (whose address is the PoolManager's): its id and its key's fee and tick spacing; null for the others. */
  uniswapV4: { id: string; fee: number; tickSpacing: number } | null;
  quote: { symbol: "USDC" | "WETH"; address: Address; decimals: number };
  tokenReserve: string;
  quoteReserve: string;
  quoteReserveUsd: number;
  /** Quote-asset USD a buy moving the price up 2% takes. */
  depthUsd: number;
  /** Below the service's minimum depth: still traded through, flagged. */
  belowDepthFloor: boolean;
};
/** One observed step: amounts in base units (decimal text); `costBps` against the pool's own quote (negative: more). */
export type TradeFigure = {
  step: "BUY_SMALL" | "TRANSFER" | "SELL_SMALL" | "BUY_LARGE" | "SELL_LARGE";
  outcome: "SUCCEEDED" | "REVERTED" | "NOT_ATTEMPTED";
  pool: Address;
  blockNumber: number;
  sent: string;
  arrived: string;
  quoted: string;
  received: string;
  costBps: number | null;
  tokenShortfallBps: number | null;
  gasUsed: number;
  revert: {
    data: string;
    kind: "ERROR_STRING" | "PANIC" | "CUSTOM_ERROR" | "EMPTY";
    message: string | null;
    panicCode: number | null;
    selector: string | null;
  } | null;
};
/** `GET /v1/token/simulation/{address}`: a buy, a transfer and a sell observed at a pinned block; never a verdict. */
export type TradeSimulation = {
  status: "SUCCESS";
  operation: "TOKEN_TRADE_SIMULATION";
  token: { address: Address; isContract: boolean; symbol: string | null; decimals: number | null };
  /** The deepest pool, traded through; null when nothing was simulated (UNVERIFIED, with its reason). */
  pool: SimulationPool | null;
  poolsConsidered: SimulationPool[];
  amounts: { smallUsd: number; largeUsd: number; smallIn: string; largeIn: string } | null;
  figures: TradeFigure[];
  /** Where the larger trade reverted and the small one succeeded: the largest amount that succeeded. */
  tradeLimits: {
    side: "BUY" | "SELL";
    largestSucceeded: string;
    smallestFailed: string;
    probes: number;
    ladderBound: number;
    resolution: string;
  }[];
  gas: { callGasLimit: number; stepGasLimit: number; ladderBound: number };
  funding: { quoteToken: Address; balanceSlot: number } | null;
  evidenceGrade: boolean;
  evidenceStatus: "VERIFIED" | "UNVERIFIED";
  reason: string;
  effectiveTrust: TrustLevel;
  observationBlock: ObservationBlock;
  rpcObservation: Record<string, unknown>;
  notASafetyGuarantee: true;
  limitations: string[];
  conclusion: null;
};

export type WhaleSignal = {
  txHash: string;
  logIndex: number;
  blockNumber: number;
  timestamp: string;
  token: { symbol: string; address: string };
  from: string;
  to: string;
  amount: string;
  amountBaseUnits: string;
  valueUsd: string | null;
  valuation: Record<string, unknown>;
};
export type WhaleSignals = {
  window: { fromBlock: number; toBlock: number; blocks: number };
  thresholds: { symbol: string; address: string; minAmount: string; minAmountBaseUnits: string }[];
  signals: WhaleSignal[];
  limit: 50;
  provenance: MarketProvenance;
};

type Challenge = {
  intentId: string;
  userWallet: Address;
  messageToSign: string;
  signatureMethod: "personal_sign";
  createdAt: string;
  expiresAt: string;
};
export type IntentEnvelope = { status: "CHALLENGE_ISSUED"; intent: Challenge & { kind: "FREE_KEY" | "RECOVERY" }; claimWith: string };
export type PurchaseIntent = {
  status: "INTENT_CREATED";
  intent: Challenge & {
    kind: "PURCHASE";
    tier: PaidTier;
    durationDays: 31 | 90 | 365;
    renewKeyId: string | null;
    payTo: Address;
    network: string;
    confirmationsRequired: number;
    priceUsd: string;
    usdc: { asset: Address; amount: string; decimals: number };
    eth: { amountWei: string; weiPerUsd: string; quotedAt: string; quoteSource: string } | null;
  };
  claimWith: string;
};
export type PurchaseRequest = { tier: PaidTier; userWallet: Address; durationDays?: 31 | 90 | 365; renewExistingKey?: boolean };
export type SignedClaim = { intentId: string; signature: Hex };
export type IssuedKey = {
  status: "ISSUED" | "RENEWED" | "REPLACED";
  /** The raw key, shown once; null when RENEWED (the presented key is unchanged). */
  apiKey: string | null;
  keyId: string;
  tier: Tier;
  wallet: Address;
  issuedAt: string;
  expiresAt: string | null;
  entitlements: Entitlements;
  payment: { txHash: string; asset: "USDC" | "ETH"; amount: string } | null;
  notice: string;
};
export type KeySelf = {
  keyId: string;
  status: "ACTIVE" | "EXPIRED";
  tier: Tier;
  wallet: Address;
  issuedAt: string;
  expiresAt: string | null;
  entitlements: Entitlements;
  credits: {
    cycleStartedAt: string;
    cycleEndsAt: string;
    allowance: number;
    used: number;
    remaining: number;
    daily: { limit: number; used: number; remaining: number; resetsAt: string } | null;
  };
};
export type RevokeResult = { status: "REVOKED"; message: string; revokedAt: string };

/** One way to pay, as an x402 v2 challenge offers it (`amount` in the asset's atomic units). */
export type PaymentRequirements = {
  scheme: string;
  network: string;
  amount: string;
  asset: Address;
  payTo: Address;
  maxTimeoutSeconds: number;
  extra?: Record<string, unknown>;
};
/** The decoded `PAYMENT-REQUIRED` header. */
export type PaymentChallenge = {
  x402Version: number;
  error?: string;
  resource: { url: string; description?: string; mimeType?: string };
  accepts: PaymentRequirements[];
};
/** The decoded `PAYMENT-RESPONSE` header of a paid answer. */
export type PaymentReceipt = { success: boolean; transaction: Hex; network: string; payer?: Address; errorReason?: string };

/** A metered answer with what its headers say: provenance, what is left, and the receipt of an x402 payment. */
export type Metered<T> = {
  data: T;
  /** Null unless the call was paid with x402. */
  receipt: PaymentReceipt | null;
  creditsRemaining: number | null;
  rateLimitRemaining: number | null;
  rpcProvider: string | null;
  trustLevel: string | null;
};
