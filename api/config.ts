import { parseUnits } from "viem";
import type { z } from "zod";
import { baseBlockTimeSeconds, baseChainId } from "../base/baseChain";
import { type IndexerSettings, indexerSettings } from "../src/config/indexerEnv";
import { type defaultAbuseLimits, type Env, EnvSchema } from "./env/EnvSchema";
import { defaultOrigin, isLoopbackHost, type KeyTier } from "./env/envValues";

/** Channels claimed per transaction (the package's default): ten cost 192,043 gas in the escrow's snapshot, so a full batch is far inside a Base block. */
const claimsPerTransaction = 100;
/** The devnet's Ponder heap cap: its live heap is about 150 MB (bench/memory.bench.ts). */
const devnetPonderHeapMb = 256;
/**
 * The young-generation semi-space (MB) of Ponder processes on Postgres, the deployment that takes load beside
 * API replicas (Node's own is 16). A market snapshot lives one block (2 s on Base), longer than two
 * scavenges of a 16 MB semi-space at 1,000 requests a second, so each was promoted and died old: on the
 * replica of `bench:base` (3 December) that meant mark-compact pauses of 43-58 ms and scavenges of 16-34 ms in
 * the measured window, and a p99 at a steady 1,000 req/s of 42-135 ms in five runs; with 64 MB, 12.3-22.4 ms
 * in three. On PGlite (`npm start`'s embedded default, one process) Node's own: 64 MB took `bench:memory`'s
 * Ponder process past its 500 MB goal (docs/operations.md#memory).
 */
const postgresPonderSemiSpaceMb = 64;
/**
 * The devnet's cap for an API replica (`ponder serve`): its live heap levels off at about 128 MB, and a
 * 256-MB cap let its resident set grow 10-19% over a 10-minute soak on garbage alone (docs/operations.md#the-soak).
 */
const devnetReplicaHeapMb = 192;

/** The abuse bounds in force (defaults: `defaultAbuseLimits`). */
export type AbuseLimits = { [K in keyof typeof defaultAbuseLimits]: number };

export type ChainMode =
  | { kind: "devnet"; manifestPath: string; providerUrls: string[]; rpcTimeoutMs: number }
  | { kind: "mainnet"; primaryUrl: string | undefined; publicUrls: string[]; rpcTimeoutMs: number };

/** When batch-settlement vouchers are claimed (`createX402ClaimJob`): as soon as any one bound is reached, every unclaimed channel is. */
export type X402ClaimPolicy = {
  /** Unclaimed vouchers in all (X402_CLAIM_MAX_VOUCHERS). */
  maxVouchers: number;
  /** Unclaimed amount in all, atomic units of the token (X402_CLAIM_MIN_AMOUNT_USDC). */
  minAmount: bigint;
  /** Age of the oldest unclaimed voucher (X402_CLAIM_MAX_AGE_SECONDS): well inside the channels' withdrawal delay. */
  maxAgeSeconds: number;
  /** Vouchers (channels) per claim transaction. */
  maxClaimsPerBatch: number;
};

export type Config = {
  port: number;
  host: string;
  /** Where users reach the service: the public origin, and the fallback host's, if any. */
  origins: ServiceOrigins;
  /** Loopback port of Ponder's own server: operators only. */
  indexerPort: number;
  clusterReplicas: number;
  /** --max-old-space-size of the Ponder processes the launchers start; undefined: Node's default. */
  ponderHeapMb: number | undefined;
  /** The same for the API replicas (`ponder serve`) of `npm run start:cluster`. */
  ponderReplicaHeapMb: number | undefined;
  /** --max-semi-space-size of every Ponder process the launchers start (64 on Postgres); undefined: Node's default. */
  ponderSemiSpaceMb: number | undefined;
  chain: ChainMode;
  database: { kind: "postgres"; url: string } | { kind: "pglite"; directory: string };
  databaseSchema: string;
  redisUrl: string | undefined;
  devnet: { port: number; blockTime: number; traffic: boolean; seededState: string | undefined };
  payoutAddress: string | undefined;
  indexer: IndexerSettings;
  market: {
    maxIndexLagBlocks: number;
    minPoolDepthUsd: number;
    whaleWindowBlocks: number;
    simulation: { callGas: number; stepGas: number };
  };
  /** Explicit demo allowlist; undefined means the mode's default samples. */
  demoAuditAddresses: string[] | undefined;
  /** RPC reads one client address may cause per minute through the demo audit. */
  demoReadsPerMinute: number;
  /**
   * The API's read-write store: schema `app` of DATABASE_URL; on an embedded devnet, schema `app` of the
   * index's own PGlite (one instance, not two); on Base without DATABASE_URL, a PGlite directory of its
   * own, since the index can be rebuilt from the chain and keys cannot.
   */
  appStore: { kind: "postgres"; url: string } | { kind: "index-pglite" } | { kind: "pglite"; directory: string };
  access: {
    apiKeyPepper: string | undefined;
    /** Where a devnet without API_KEY_PEPPER keeps its generated pepper: beside APP_PGLITE_DIR. */
    devPepperFile: string;
    gatewayProxySecretSha256: string | undefined;
    operatorBootstrapToken: string | undefined;
    clientIpHeader: string | undefined;
    /** Peers whose CLIENT_IP_HEADER is believed (IPs and CIDR blocks). */
    trustedProxies: string[];
    limits: AbuseLimits;
    /** CREDIT_LEASE_MAX; undefined: the service's default. */
    creditLeaseMax: number | undefined;
    /** Per-minute limits replacing the catalogue's, by tier. */
    tierRateLimits: Partial<Record<z.infer<typeof KeyTier>, number>>;
    /** Requests per minute per client address on the keyless routes (and per operator token on the stats). */
    publicRequestsPerMinute: number;
  };
  /** The MCP endpoints: browser origins allowed besides the service's own, and what a replica and one client address may take. */
  mcp: {
    allowedOrigins: string[];
    maxStreams: number;
    /** Requests per minute per client address over POST /mcp, GET /mcp, GET /sse and POST /messages. */
    requestsPerMinute: number;
    maxStreamsPerClient: number;
    streamIdleMs: number;
    maxQueuedBytes: number;
  };
  /** Stats, events and the status history. */
  discovery: { operatorStatsToken: string | undefined; healthSampleIntervalSeconds: number };
  /** Per-call x402 settlement: a remote facilitator's URL, or the in-process facilitator's gas key (neither: the mode's default). */
  x402: {
    facilitatorUrl: string | undefined;
    facilitatorPrivateKey: `0x${string}` | undefined;
    /** Signs offers and receipts; undefined: the mode's default (devnet: the payout account; mainnet: none). */
    signingKey: `0x${string}` | undefined;
    /** The batch-settlement escrow's expected code hash; undefined: the mode's default (devnet: the manifest's; mainnet: none). */
    batchEscrowCodeHash: `0x${string}` | undefined;
    /** Seconds a paid answer and its payment-identifier id are kept for retries. */
    paymentIdRetentionSeconds: number;
    /** The payer's payments in flight whose authorization state one admission reads at most. */
    payerAuthorizationReads: number;
    /** When batch-settlement vouchers are claimed (`X402ClaimPolicy`), and how often claims and sweeps run. */
    claims: X402ClaimPolicy & { intervalSeconds: number; sweepIntervalSeconds: number };
  };
  logLevel: Env["LOG_LEVEL"];
};

/** The public origin and the fallback host's origin (each `scheme://host[:port]`). */
export type ServiceOrigins = { public: string; fallback: string | undefined };

export class ConfigError extends Error {
  override name = "ConfigError";
}

/** Parses the environment once; a bad value stops the process with every problem named. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  // An empty variable (`DATABASE_URL=`) means unset, as shells and .env files use it.
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ""));
  const parsed = EnvSchema.safeParse(present);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new ConfigError(`invalid configuration: ${problems}`);
  }
  const e = parsed.data;
  const mainnet = e.BASE_RPC_URLS !== undefined || e.BASE_RPC_PRIMARY_URL !== undefined;
  if (mainnet && e.API_KEY_PEPPER === undefined) {
    throw new ConfigError("invalid configuration: API_KEY_PEPPER: required in mainnet mode (at least 32 random characters)");
  }
  if (e.X402_FACILITATOR_URL !== undefined && e.X402_FACILITATOR_PRIVATE_KEY !== undefined) {
    throw new ConfigError(
      "invalid configuration: X402_FACILITATOR_URL and X402_FACILITATOR_PRIVATE_KEY: set one (a remote facilitator, or the in-process facilitator's gas key)",
    );
  }
  if (e.CLIENT_IP_HEADER !== undefined && e.TRUSTED_PROXIES.length === 0) {
    // Believed from any peer, the header lets a client pick its own bucket; believed from none, it is dead weight.
    throw new ConfigError(
      "invalid configuration: CLIENT_IP_HEADER: needs TRUSTED_PROXIES, the load balancer addresses (IPs or CIDR blocks) it is believed from",
    );
  }
  if (e.TRUSTED_PROXIES.length > 0 && e.CLIENT_IP_HEADER === undefined) {
    // Without the header the proxies' word is never read: every client behind them would share one bucket.
    throw new ConfigError(
      "invalid configuration: TRUSTED_PROXIES: needs CLIENT_IP_HEADER, the header those load balancers write the client address into",
    );
  }
  if (!mainnet && !e.DEVNET_ALLOW_PUBLIC_HOST && !isLoopbackHost(e.HOST)) {
    throw new ConfigError(
      `invalid configuration: HOST: the devnet (no BASE_RPC_URLS or BASE_RPC_PRIMARY_URL set) listens on loopback only, not ${e.HOST}: ` +
        `it signs x402 offers and challenges with Base's chain id (${baseChainId}) and USDC domain for a payout account whose key is public, ` +
        "so a real wallet's payment authorization sent to it would be valid on Base. Use HOST=127.0.0.1, or set " +
        "DEVNET_ALLOW_PUBLIC_HOST=true if you mean to expose it",
    );
  }
  if (e.INDEXER_PORT === e.PORT) {
    throw new ConfigError(`invalid configuration: INDEXER_PORT: must differ from PORT (${e.PORT}), which is the API's`);
  }
  return {
    port: e.PORT,
    host: e.HOST,
    origins: { public: e.PUBLIC_URL ?? defaultOrigin(e.HOST, e.PORT), fallback: e.FALLBACK_URL },
    indexerPort: e.INDEXER_PORT,
    clusterReplicas: e.CLUSTER_REPLICAS,
    // The devnet's index is small: Node's default heap (a quarter of RAM, up to 4 GB) only lets garbage
    // pile up. On Base the backfill's working set is the operator's to size.
    ponderHeapMb: e.PONDER_HEAP_MB ?? (mainnet ? undefined : devnetPonderHeapMb),
    ponderReplicaHeapMb: e.PONDER_REPLICA_HEAP_MB ?? (mainnet ? e.PONDER_HEAP_MB : devnetReplicaHeapMb),
    ponderSemiSpaceMb: e.PONDER_SEMI_SPACE_MB ?? (e.DATABASE_URL ? postgresPonderSemiSpaceMb : undefined),
    chain: mainnet
      ? { kind: "mainnet", primaryUrl: e.BASE_RPC_PRIMARY_URL, publicUrls: e.BASE_RPC_URLS ?? [], rpcTimeoutMs: e.RPC_TIMEOUT_MS }
      : { kind: "devnet", manifestPath: e.DEVNET_MANIFEST, providerUrls: e.DEVNET_PROVIDER_URLS ?? [], rpcTimeoutMs: e.RPC_TIMEOUT_MS },
    database: e.DATABASE_URL ? { kind: "postgres", url: e.DATABASE_URL } : { kind: "pglite", directory: e.PGLITE_DIR },
    databaseSchema: e.DATABASE_SCHEMA,
    redisUrl: e.REDIS_URL,
    devnet: {
      port: e.DEVNET_PORT,
      blockTime: e.DEVNET_BLOCK_TIME,
      traffic: e.DEVNET_TRAFFIC,
      seededState: e.DEVNET_SEEDED_STATE || undefined,
    },
    payoutAddress: e.PAYOUT_ADDRESS,
    indexer: indexerSettings(e),
    market: {
      maxIndexLagBlocks: e.MARKET_MAX_INDEX_LAG_BLOCKS,
      minPoolDepthUsd: e.MARKET_MIN_POOL_DEPTH_USD,
      simulation: { callGas: e.SIMULATION_CALL_GAS, stepGas: e.SIMULATION_STEP_GAS },
      // Whale candidates older than the indexed whale window are pruned: the window never reaches past them.
      whaleWindowBlocks: Math.min(e.WHALE_SIGNALS_WINDOW_BLOCKS, Math.floor(e.INDEXER_WHALE_WINDOW_SECONDS / baseBlockTimeSeconds)),
    },
    demoAuditAddresses: e.DEMO_AUDIT_ADDRESSES,
    demoReadsPerMinute: e.DEMO_RPC_READS_PER_MINUTE,
    appStore: e.DATABASE_URL
      ? { kind: "postgres", url: e.DATABASE_URL }
      : mainnet
        ? { kind: "pglite", directory: e.APP_PGLITE_DIR }
        : { kind: "index-pglite" },
    access: {
      apiKeyPepper: e.API_KEY_PEPPER,
      devPepperFile: `${e.APP_PGLITE_DIR}.api-key-pepper`,
      gatewayProxySecretSha256: e.GATEWAY_PROXY_SECRET_SHA256,
      operatorBootstrapToken: e.OPERATOR_BOOTSTRAP_TOKEN,
      clientIpHeader: e.CLIENT_IP_HEADER,
      trustedProxies: e.TRUSTED_PROXIES,
      limits: {
        maxOpenIntentsPerWallet: e.INTENTS_MAX_OPEN_PER_WALLET,
        maxIntentsPerClientPerHour: e.INTENTS_MAX_PER_CLIENT_PER_HOUR,
        maxAuthFailuresPerMinute: e.AUTH_FAILURES_PER_MINUTE,
      },
      creditLeaseMax: e.CREDIT_LEASE_MAX,
      tierRateLimits: e.TIER_RATE_LIMITS ?? {},
      publicRequestsPerMinute: e.PUBLIC_REQUESTS_PER_MINUTE,
    },
    mcp: {
      allowedOrigins: [
        ...new Set([
          e.PUBLIC_URL ?? defaultOrigin(e.HOST, e.PORT),
          ...(e.FALLBACK_URL ? [e.FALLBACK_URL] : []),
          ...(e.MCP_ALLOWED_ORIGINS ?? []),
        ]),
      ],
      maxStreams: e.MCP_MAX_SSE_STREAMS,
      requestsPerMinute: e.MCP_REQUESTS_PER_MINUTE,
      maxStreamsPerClient: e.MCP_MAX_SSE_STREAMS_PER_CLIENT,
      streamIdleMs: e.MCP_SSE_IDLE_SECONDS * 1000,
      maxQueuedBytes: e.MCP_SSE_MAX_QUEUED_BYTES,
    },
    discovery: { operatorStatsToken: e.OPERATOR_STATS_TOKEN, healthSampleIntervalSeconds: e.HEALTH_SAMPLE_INTERVAL_SECONDS },
    x402: {
      facilitatorUrl: e.X402_FACILITATOR_URL,
      facilitatorPrivateKey: e.X402_FACILITATOR_PRIVATE_KEY,
      signingKey: e.X402_SIGNING_KEY,
      batchEscrowCodeHash: e.X402_BATCH_ESCROW_CODE_HASH,
      paymentIdRetentionSeconds: e.X402_PAYMENT_ID_RETENTION_SECONDS,
      payerAuthorizationReads: e.X402_PAYER_AUTHORIZATION_READS,
      claims: {
        maxVouchers: e.X402_CLAIM_MAX_VOUCHERS,
        minAmount: parseUnits(String(e.X402_CLAIM_MIN_AMOUNT_USDC), 6),
        maxAgeSeconds: e.X402_CLAIM_MAX_AGE_SECONDS,
        maxClaimsPerBatch: claimsPerTransaction,
        intervalSeconds: e.X402_CLAIM_INTERVAL_SECONDS,
        sweepIntervalSeconds: e.X402_SWEEP_INTERVAL_SECONDS,
      },
    },
    logLevel: e.LOG_LEVEL,
  };
}
