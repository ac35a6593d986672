import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { commaList, IndexerEnv } from "../../src/config/indexerEnv";
import { address, booleanFlag, ipBlockList, origin, positiveCount, privateKey, tierRates, urlList } from "./envValues";

// import.meta.dirname is not set when Ponder loads this file through vite-node.
const projectRoot = fileURLToPath(new URL("../..", import.meta.url));

/**
 * Bounds on work anyone can cause without a credential (README, Access). 20 open intents per wallet:
 * an honest flow holds one or two at a time (each lives 15 minutes), so 20 leaves room for every
 * retry while bounding the rows one wallet can hold. 100 intents per client address an hour: a team
 * behind one address can onboard dozens of wallets, while one address adds at most 2,400 rows a day
 * instead of the 86,400 its per-minute budget would allow. 20 failed authentications per client
 * address a minute: a typo never comes near it, a client stuck on a dead key is told to back off, and
 * a key-guessing client costs at most 20 key lookups a minute.
 */
export const defaultAbuseLimits = { maxOpenIntentsPerWallet: 20, maxIntentsPerClientPerHour: 100, maxAuthFailuresPerMinute: 20 } as const;

/**
 * What one client address may take of the MCP endpoints (docs/mcp.md#bounds). 300 requests a minute over
 * POST /mcp, GET /mcp, GET /sse and POST /messages together: an agent makes about one request per tool call, so
 * five a second is well above a session's pace (a client that needs its key's higher plan rate over MCP
 * from one address is the operator's to allow). 10 open legacy streams: a host's few clients, a hundredth
 * of a replica's 1,000. 5 minutes without a posted message closes a stream (its client reconnects). 1 MiB
 * of replies waiting unread on a stream closes its session: about twenty `tools/list` answers, far more than
 * a client that reads ever leaves behind.
 */
export const defaultMcpLimits = {
  requestsPerMinute: 300,
  maxStreamsPerClient: 10,
  streamIdleSeconds: 300,
  maxQueuedBytes: 1_048_576,
} as const;

/**
 * Authorization states one x402 admission reads of the payer's payments in flight (its recent settled ones
 * included, the newest first). 64: the claim counts a minute of settlements (by the read block's clock),
 * and a payer sending from one address at the default 60 requests a minute has at most about 61 of them,
 * so only a payer paying from many addresses at once has some counted whole unread.
 */
export const defaultX402PayerAuthorizationReads = 64;

/** RPC_TIMEOUT_MS's default: how long one batch may take before its provider counts as not answering. */
export const defaultRpcTimeoutMs = 4000;

/**
 * Every environment variable the service reads. Each has a row in docs/configuration.md; nothing else
 * reads process.env.
 */
export const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(1).max(65535).default(42069),
  HOST: z.string().min(1).default("127.0.0.1"),
  /** The service's public origin: challenges name it, the OpenAPI document lists it. Default: http://HOST:PORT. */
  PUBLIC_URL: origin.optional(),
  /** A fallback web host serving the same API (a second replica on the same database), if any. */
  FALLBACK_URL: origin.optional(),
  /** Port of Ponder's own server (its status, metrics, probes and client routes), always on 127.0.0.1. */
  INDEXER_PORT: z.coerce.number().int().min(1).max(65535).default(42070),
  /** V8 heap cap (MB) of the Ponder process `npm start` runs and of `npm run start:cluster`'s indexer; default: 256 on the devnet, Node's own on Base. */
  PONDER_HEAP_MB: z.coerce.number().int().min(128).optional(),
  /** V8 heap cap (MB) of the API replicas `npm run start:cluster` runs; default: 192 on the devnet, else PONDER_HEAP_MB. */
  PONDER_REPLICA_HEAP_MB: z.coerce.number().int().min(128).optional(),
  /** V8 young-generation semi-space (MB, `--max-semi-space-size`) of every Ponder process the start scripts run; default 64 with DATABASE_URL (api/config.ts says why), else Node's own. */
  PONDER_SEMI_SPACE_MB: z.coerce.number().int().min(1).max(1024).optional(),
  /** API replicas `npm run start:cluster` runs beside the indexer (on PORT + 2i, their Ponder servers on INDEXER_PORT + 2i). */
  CLUSTER_REPLICAS: z.coerce.number().int().min(1).max(8).default(2),
  /** Public Base RPC providers (comma-separated). Setting this or BASE_RPC_PRIMARY_URL selects mainnet mode. */
  BASE_RPC_URLS: urlList.optional(),
  /** A trusted primary Base RPC provider (your own node or a paid endpoint). */
  BASE_RPC_PRIMARY_URL: z.string().url().optional(),
  /** How long one JSON-RPC batch to a provider may take before that provider counts as not answering. */
  RPC_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(defaultRpcTimeoutMs),
  DATABASE_URL: z.string().url().optional(),
  /** Ponder's schema for this deploy of the indexing code. */
  DATABASE_SCHEMA: z
    .string()
    .regex(/^[a-z_][a-z0-9_]{0,44}$/)
    .default("svc_index"),
  PGLITE_DIR: z.string().default(resolve(projectRoot, ".ponder", "pglite")),
  REDIS_URL: z.string().url().optional(),
  DEVNET_MANIFEST: z.string().default(resolve(projectRoot, ".devnet", "manifest.json")),
  DEVNET_PORT: z.coerce.number().int().min(0).max(65535).default(8545),
  DEVNET_BLOCK_TIME: z.coerce.number().int().min(0).max(60).default(1),
  DEVNET_TRAFFIC: booleanFlag.default(true),
  /** A seeded devnet's saved state (devnet/seededState.ts) to start from instead of seeding: how the tests start their devnets. */
  DEVNET_SEEDED_STATE: z.string().optional(),
  /** Lets a devnet listen on a HOST other than loopback: its keys are public and it signs as Base (docs/security.md). */
  DEVNET_ALLOW_PUBLIC_HOST: booleanFlag.default(false),
  /** Providers the API reads the devnet through, as public (untrusted) ones, instead of its node alone (fault drills: `npm run soak`). */
  DEVNET_PROVIDER_URLS: urlList.optional(),
  /** Where subscription and x402 payments are sent; on the devnet the manifest's payout account. */
  PAYOUT_ADDRESS: address.optional(),
  /** Addresses the free demo audit answers in full (comma-separated); defaults: the devnet fixtures or Base's majors. */
  DEMO_AUDIT_ADDRESSES: commaList.pipe(z.array(address)).optional(),
  /** The app store's PGlite directory (keys, intents, credits) on Base when DATABASE_URL is unset (the devnet's shares the index's). */
  APP_PGLITE_DIR: z.string().default(resolve(projectRoot, ".data", "app")),
  /** Server secret API keys are hashed under (HMAC-SHA256). Required in mainnet mode. */
  API_KEY_PEPPER: z.string().min(32, "must be at least 32 characters").optional(),
  /** Lowercase hex SHA-256 of the marketplace gateway's proxy secret; unset: gateway access is off. */
  GATEWAY_PROXY_SECRET_SHA256: z
    .string()
    .regex(/^[0-9a-fA-F]{64}$/, "must be 64 hex digits (a SHA-256 digest)")
    .transform((s) => s.toLowerCase())
    .optional(),
  /** Enables GET /v1/operator/gateway-proxy-digest; unset: that route is 404. */
  OPERATOR_BOOTSTRAP_TOKEN: z.string().min(32, "must be at least 32 characters").optional(),
  /** Enables the operator view of GET /v1/stats (Authorization: Bearer <token>); unset: public view only. */
  OPERATOR_STATS_TOKEN: z.string().min(32, "must be at least 32 characters").optional(),
  /** Seconds between health samples of the status history. */
  HEALTH_SAMPLE_INTERVAL_SECONDS: z.coerce.number().int().min(10).max(3600).default(60),
  /** Requests one client address may make per minute to the keyless routes (shared budget), and an operator token to the stats. */
  PUBLIC_REQUESTS_PER_MINUTE: positiveCount.default(60),
  /** Header a trusted proxy puts the client address in (a chain of hops read from the right), for the per-address limits. */
  CLIENT_IP_HEADER: z
    .string()
    .regex(/^[A-Za-z0-9-]+$/, "must be a header name")
    .transform((s) => s.toLowerCase())
    // RFC 7239's `Forwarded` (`for=1.2.3.4;proto=https`) is not a list of addresses: no hop would parse.
    .refine((h) => h !== "forwarded", "must be an X-Forwarded-For-style header (comma-separated addresses), not RFC 7239 Forwarded")
    .optional(),
  /** Peers (IPs, CIDR blocks) whose CLIENT_IP_HEADER is believed; default none. */
  TRUSTED_PROXIES: ipBlockList.default([]),
  /** RPC reads one client address may cause per minute through the free demo audit. */
  DEMO_RPC_READS_PER_MINUTE: positiveCount.default(1200),
  /** Open (unconsumed, unexpired) intents one wallet may hold. */
  INTENTS_MAX_OPEN_PER_WALLET: positiveCount.default(defaultAbuseLimits.maxOpenIntentsPerWallet),
  /** Intents one client address may create per hour (in process memory, per replica). */
  INTENTS_MAX_PER_CLIENT_PER_HOUR: positiveCount.default(defaultAbuseLimits.maxIntentsPerClientPerHour),
  /** Failed authentications (API key, gateway proxy secret, operator token) per client address per minute. */
  AUTH_FAILURES_PER_MINUTE: positiveCount.default(defaultAbuseLimits.maxAuthFailuresPerMinute),
  /** Blocks the index may trail the chain head before market answers (and /v1/status) call it stale. */
  MARKET_MAX_INDEX_LAG_BLOCKS: positiveCount.default(30),
  /** USD depth within ±2% below which a pool does not set a token's price (thin or manipulable pools). */
  MARKET_MIN_POOL_DEPTH_USD: z.coerce.number().int().min(0).default(50_000),
  /** Gas the trade simulation's one eth_call may use in all (every step, the ladder's probes included). */
  SIMULATION_CALL_GAS: positiveCount.default(30_000_000),
  /** Gas each step of the trade simulation (a buy, a transfer, a sell, a ladder probe) may use; more is an out-of-gas revert. */
  SIMULATION_STEP_GAS: positiveCount.default(2_000_000),
  /** Blocks back from the index head that whale signals look at (43,200: 24 hours of Base blocks). */
  WHALE_SIGNALS_WINDOW_BLOCKS: positiveCount.default(43_200),
  /** Gas key of the in-process x402 facilitator (it sends transferWithAuthorization); devnet: the manifest's facilitator account. */
  X402_FACILITATOR_PRIVATE_KEY: privateKey.optional(),
  /** A remote x402 facilitator (its /verify, /settle and /supported) used instead of the in-process one. */
  X402_FACILITATOR_URL: z
    .string()
    .url({ abort: true })
    .refine((u) => /^https?:$/.test(new URL(u).protocol), "must be an http(s) URL")
    .optional(),
  /** Key that signs x402 offers and receipts (EIP-712); devnet: the payout account's. Unset on mainnet: none are signed. */
  X402_SIGNING_KEY: privateKey.optional(),
  /**
   * Runtime code hash (keccak-256) x402's batch-settlement escrow must have at its canonical address for the
   * scheme to be offered; devnet: the seeded escrow's (the manifest's). Unset on mainnet: exact alone.
   */
  X402_BATCH_ESCROW_CODE_HASH: z
    .string()
    .regex(/^0x[0-9a-fA-F]{64}$/, "must be a 0x-prefixed 32-byte hex hash")
    .transform((s) => s.toLowerCase() as `0x${string}`)
    .optional(),
  /** How long a paid answer and its payment-identifier id are kept for retries (default 24 hours). */
  X402_PAYMENT_ID_RETENTION_SECONDS: z.coerce
    .number()
    .int()
    .min(60)
    .max(30 * 86_400)
    .default(86_400),
  /** Seconds between batch-settlement claim rounds (each reads the unclaimed vouchers; a claim is sent only past a bound below). */
  X402_CLAIM_INTERVAL_SECONDS: positiveCount.max(300).default(10),
  /** Unclaimed batch-settlement vouchers, in all, at which they are claimed. */
  X402_CLAIM_MAX_VOUCHERS: positiveCount.max(100_000).default(100),
  /** Unclaimed batch-settlement USDC, in all, at which it is claimed. */
  X402_CLAIM_MIN_AMOUNT_USDC: z.coerce.number().min(0.000001).max(1_000_000).default(1),
  /**
   * Age of the oldest unclaimed voucher at which every channel is claimed: at most a third of the 900-second
   * withdrawal delay the channels are opened with, so a claim is mined before a payer's withdrawal can finish.
   */
  X402_CLAIM_MAX_AGE_SECONDS: positiveCount.max(300).default(300),
  /** Seconds between sweeps of claimed batch-settlement funds from the escrow to the payout address. */
  X402_SWEEP_INTERVAL_SECONDS: positiveCount.max(86_400).default(3600),
  /** Authorization states read per x402 payment admitted (the payer's payments in flight); the others count whole. */
  X402_PAYER_AUTHORIZATION_READS: z.coerce.number().int().min(1).max(1000).default(defaultX402PayerAuthorizationReads),
  /** Most credits one replica leases per key beyond the call it charges (default 1,000); 0: a store write per call. */
  CREDIT_LEASE_MAX: z.coerce.number().int().min(0).max(1_000_000).optional(),
  /** Browser origins allowed to call the MCP endpoints beside the service's own (comma-separated, `https://app.example.com`); a request without Origin always passes. */
  MCP_ALLOWED_ORIGINS: commaList
    .transform((origins) => origins.map((o) => o.replace(/\/$/, "")))
    .pipe(z.array(z.string().regex(/^https?:\/\/[^/?#\s]+$/, "each must be an http(s) origin such as https://app.example.com")))
    .optional(),
  /** Open MCP streams (legacy SSE sessions; 2026-era listen streams) per replica; beyond it GET /sse is 503. */
  MCP_MAX_SSE_STREAMS: positiveCount.max(100_000).default(1000),
  /** Requests one client address may make per minute to POST /mcp, GET /mcp, GET /sse and POST /messages together (in process memory, per replica). */
  MCP_REQUESTS_PER_MINUTE: positiveCount.default(defaultMcpLimits.requestsPerMinute),
  /** Open legacy SSE streams one client address may hold per replica; beyond it GET /sse is 429. */
  MCP_MAX_SSE_STREAMS_PER_CLIENT: positiveCount.max(100_000).default(defaultMcpLimits.maxStreamsPerClient),
  /** Seconds a legacy SSE stream stays open without a message posted to its session. */
  MCP_SSE_IDLE_SECONDS: positiveCount.max(86_400).default(defaultMcpLimits.streamIdleSeconds),
  /** Bytes of replies a legacy SSE stream may hold unread before its session is closed. */
  MCP_SSE_MAX_QUEUED_BYTES: positiveCount
    .min(65_536)
    .max(64 * 1_048_576)
    .default(defaultMcpLimits.maxQueuedBytes),
  /** Per-minute limits of keys to replace by tier (`PRO=600000`: a load test); the plans state the limits in force. */
  TIER_RATE_LIMITS: tierRates.optional(),
  ...IndexerEnv.shape,
  LOG_LEVEL: z.enum(["error", "warn", "info", "debug"]).default("info"),
});

export type Env = z.infer<typeof EnvSchema>;
