import { z } from "zod";

/**
 * The JSON object each benchmark prints as its last line: its fields and their types, one schema for
 * each `npm run bench:*` script. The benchmarks type their figures with these, and
 * test/bench/benchSmoke.test.ts parses the line each printed with them.
 */

const backend = z.enum(["pglite", "postgres"]);
const rateLimits = z.enum(["memory", "redis"]);

/** `bench:dissect`: our dissection against whatsabi and evmole on the whole corpus. */
export const dissectFigures = z.strictObject({
  /** Medians of the timed rounds: whatsabi's time (selectors and an opcode pass) over ours. */
  speedupVsWhatsabi: z.number(),
  /** evmole's time (selectors) over ours. */
  speedupVsEvmole: z.number(),
  /** Our selectors against the ABIs the corpus was compiled from. */
  selectorRecall: z.number(),
  selectorPrecision: z.number(),
  contracts: z.number().int(),
  ourMsPerContract: z.number(),
});

/** `bench:audit`: an audit of the devnet Diamond, batched as we send it and one request per call. */
export const auditFigures = z.strictObject({
  rpcRoundTrips: z.number().int(),
  p50Ms: z.number(),
  p95Ms: z.number(),
  baselineRoundTrips: z.number().int(),
  baselineP50Ms: z.number(),
  /** The baseline's p50 over ours. */
  ratio: z.number(),
  /** Whether whatsabi's `autoload` with `followProxies` found the Diamond's facets. */
  whatsabiResolvedDiamond: z.boolean(),
});

/** `bench:simulation`: the trade simulation over the devnet's fixture tokens, the audit timed beside it. */
export const simulationFigures = z.strictObject({
  p50Ms: z.number(),
  p95Ms: z.number(),
  /** HTTP round trips to the RPC after the pin (the pools' batch, the simulation's eth_call). */
  rpcRoundTrips: z.number().int(),
  fixtures: z.number().int(),
  /** Fixtures whose observed figures equal their parameters exactly. */
  exact: z.number().int(),
  /** The audit of the devnet Diamond in the same run, interleaved. */
  auditP50Ms: z.number(),
  /** Our p50 over the audit's. */
  ratioToAudit: z.number(),
});

/** `bench:x402`: a paid price call under each x402 scheme beside the keyed call, and the operator's gas a call. */
export const x402Figures = z.strictObject({
  /** The official client's whole call (its 402, then the paid request), sequential and interleaved. */
  exactP50Ms: z.number(),
  exactP99Ms: z.number(),
  batchP50Ms: z.number(),
  batchP99Ms: z.number(),
  keyedP50Ms: z.number(),
  keyedP99Ms: z.number(),
  /** The request carrying the voucher alone. */
  voucherRequestP50Ms: z.number(),
  voucherRequestP99Ms: z.number(),
  /** Gas the service's key paid, per paid call. */
  gasPerCallExact: z.number().int(),
  gasPerCallBatch: z.number().int(),
  /** Paid calls a second under batch-settlement over keyed calls a second, at the same concurrency. */
  batchThroughputRatio: z.number(),
  keyedCallsPerSecond: z.number().int(),
  batchCallsPerSecond: z.number().int(),
  /** Claim transactions mined by the claim job during the run (0: the gas per batch call counts deposits only). */
  claimTransactions: z.number().int(),
  blockSeconds: z.number(),
  backend,
});

/** `bench:listener`: the public port's throughput (medians of the rounds) and CPU time a request. */
export const listenerFigures = z.strictObject({
  backend,
  bareHonoRps: z.number().int(),
  ownListenerRps: z.number().int(),
  /** Only with DATABASE_URL: the same route through an API replica. */
  replicaListenerRps: z.number().int().optional(),
  ratioOwnVsBare: z.number(),
  ratioReplicaVsBare: z.number().optional(),
  /** By target (`bareHono`, `ownListener`, `replicaListener`): the serving process's CPU µs a request; null off Linux. */
  cpuUsPerRequest: z.record(z.string(), z.number().int().nullable()),
});

/** `bench:access`: the access path alone over HTTP against bare Hono. */
export const accessFigures = z.strictObject({
  ratioVsBareHono: z.number(),
  p99MsAt1000rps: z.number(),
  bareHonoP99MsAt1000rps: z.number(),
  backend,
  rateLimits,
  bareHonoRps: z.number().int(),
  noAccessRps: z.number().int(),
  meteredRps: z.number().int(),
  accessMicrosecondsPerCall: z.number().int(),
});

/** `bench:market`: a keyed route of `npm start` under load against bare Hono. */
export const marketFigures = z.strictObject({
  ratioVsBareHono: z.number(),
  p99MsAt1000rps: z.number(),
  /** The largest lag between the head and the index block an answer reflects; null when answers carry no index provenance. */
  freshnessBlocks: z.number().int().nullable(),
  bareHonoP99MsAt1000rps: z.number(),
  route: z.string(),
  backend,
  servedBy: z.enum(["indexer", "replica"]),
  rateLimits,
  bareHonoRps: z.number().int(),
  routeRps: z.number().int(),
});

/** Resident sets in MB by process (`ponder`, `start`, `anvil`; one that exited is left out) and their `total`. */
const processSizes = z.record(z.string(), z.number());

/** `bench:memory`: the resident sets of `npm start` under steady load. */
export const memoryFigures = z.strictObject({
  database: backend,
  seconds: z.number(),
  requests: z.number().int(),
  /** Answers by HTTP status. */
  statuses: z.record(z.string(), z.number().int()),
  rssReadyMb: processSizes,
  /** null when the load lasted less than a minute. */
  rssAfterMinuteMb: processSizes.nullable(),
  rssEndMb: processSizes,
});

/** `bench:indexer`: backfill throughput of our handlers against no-op handlers, and the lag under traffic. */
export const indexerFigures = z.strictObject({
  /** Our events a second over the no-op handlers'. */
  ratio: z.number(),
  eventsPerSecond: z.number().int(),
  lagBlocks: z.number().int(),
});

/** `bench:base`: the service at Base's rates on the devnet seeded like Base, for ten minutes. */
export const baseFigures = z.strictObject({
  /** The chain's head minus the indexer's block, sampled every 250 ms over the window. */
  lagBlocksMax: z.number().int(),
  lagBlocksP99: z.number().int(),
  /** The price route at a fixed 1,000 req/s, and its throughput over bare Hono's in the same run. */
  p99MsAt1000rps: z.number(),
  ratioVsBareHono: z.number(),
  /** From `ponder start` to its /ready, the backfill of the full candidate set done. */
  startupSeconds: z.number(),
  /** The database's growth (Ponder's sync cache included) per 43,200 blocks. */
  dbGrowthMbPerDay: z.number(),
  /** The same by schema, tables with their indexes (Postgres; empty on PGlite). */
  dbGrowthMbPerDayBySchema: z.record(z.string(), z.number()),
  /** The largest sum of the service's resident sets (the devnet apart). */
  rssMb: z.number(),
  backend,
  servedBy: z.enum(["indexer", "replica"]),
  blockSeconds: z.number(),
  /** Blocks in the measured window. */
  blocks: z.number().int(),
  /** What the chain carried a block on average over the window, counted from its logs. */
  carried: z.strictObject({ swapsPerBlock: z.number(), trackedTransfersPerBlock: z.number(), paymentsPerBlock: z.number() }),
  /** RPC requests by method per 43,200 blocks: the indexer's process, and the replica's (empty without one). */
  rpcRequestsPerDay: z.strictObject({ indexer: z.record(z.string(), z.number().int()), replica: z.record(z.string(), z.number().int()) }),
  /** The indexer's process's RPC requests by method from its start to the window's (the backfill, the candidates' checks, the keys' sale). */
  rpcRequestsAtStartup: z.record(z.string(), z.number().int()),
  rssByProcessMb: z.record(z.string(), z.number()),
  bareHonoP99MsAt1000rps: z.number(),
  bareHonoRps: z.number().int(),
  routeRps: z.number().int(),
  /** The machine's load average (1, 5, 15 minutes) at the window's end. */
  loadAverage: z.array(z.number()),
});

/**
 * Prints `figures` as the benchmark's last line, typed by its schema (checked by the smoke test, not here:
 * a long run's figures are printed even when one of them is not a number).
 */
export function printFigures<T extends z.ZodType>(_schema: T, figures: z.infer<T>): void {
  console.log(JSON.stringify(figures));
}
