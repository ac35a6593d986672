import { type Context, ponder } from "ponder:registry";
import { poolCandidate, poolTick } from "ponder:schema";
import type { Hex } from "viem";
import type { IndexedPoolKind } from "./config/indexerEnv";
import { logSourceKinds } from "./config/plannedPools";
import { type DescribedPool, describePlannedPool } from "./describePlannedPool";
import { describeV4Pool, uninitializedV4Pool } from "./describeV4Pool";
import { plan } from "./plan";
import { readInitializedV4Pools } from "./readInitializedV4Pools";
import { readListedPools } from "./readListedPools";
import { registerPool } from "./registerPool";

// The planned pools (derived candidates, or INDEXER_POOLS / INDEXER_V4_POOLS): each verified and read once as
// of the end of the block before their sources' start block, initialized ticks included; from the start
// block on, their events update them (an event of the start block itself is applied once: Mint, Burn and
// ModifyLiquidity add deltas). A derived candidate with no pool yet is watched (registerWatchedPool.ts).

/** Pools verified and read at once: reads overlap, writes stay in order. */
const describeConcurrency = 16;

/**
 * A source's planned pools, whether they were derived or listed, and how they are described at a block:
 * one batched read for the whole source first (which candidates exist), then each pool (only the existing
 * ones cost further reads).
 */
type PlannedSource = {
  name: string;
  discovery: "derived" | "list";
  pools: { kind: IndexedPoolKind; address: Hex }[];
  describer: (stateBlock: bigint) => Promise<(index: number) => Promise<DescribedPool>>;
};

/** Verifies and registers a source's pools as of just before `startBlock`, records each one's outcome, and logs a summary. */
async function registerAtStart(context: Context, startBlock: number | undefined, source: PlannedSource) {
  if (startBlock === undefined) throw new Error("pool sources need a start block");
  const started = Date.now();
  const block = await context.client.getBlock({ blockNumber: BigInt(startBlock) });
  const stateBlock = block.number > 0n ? block.number - 1n : 0n;
  const chainId = context.chain.id;
  const counts = { indexed: 0, watched: 0, refused: 0 };
  const describe = await source.describer(stateBlock);
  const { pools } = source;
  for (let i = 0; i < pools.length; i += describeConcurrency) {
    const batch = pools.slice(i, i + describeConcurrency);
    const described = await Promise.all(batch.map((_, j) => describe(i + j)));
    for (const [j, { kind, address }] of batch.entries()) {
      const result = described[j] as DescribedPool;
      const registered =
        result.ok &&
        (await registerPool(context, {
          ...result.pool,
          blockNumber: stateBlock,
          volume0: 0n,
          volume1: 0n,
          // Swaps before the start block are not indexed: the window begins there.
          volumeSince: block.timestamp - 1n,
          tickCount: result.ticks?.length ?? 0,
        }));
      const outcome: { status: "indexed" | "watched" | "refused"; reason: string | null } = registered
        ? { status: "indexed", reason: null }
        : !result.ok && result.absent && source.discovery === "derived"
          ? { status: "watched", reason: null }
          : { status: "refused", reason: result.ok ? "it holds no verified tracked token" : result.reason };
      counts[outcome.status] += 1;
      await context.db.insert(poolCandidate).values({ chainId, address, kind, ...outcome });
      if (outcome.status === "refused") {
        const mode = source.discovery === "list" ? "curated" : "derived";
        console.warn(`[indexer] ${mode} ${kind} pool ${address} refused: ${outcome.reason}`);
      }
      const ticks = result.ok && registered ? (result.ticks ?? []) : [];
      if (ticks.length > 0) await context.db.insert(poolTick).values(ticks.map((t) => ({ chainId, pool: address, ...t })));
    }
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.info(
    `[indexer] ${source.name}: ${pools.length} planned pools at block ${stateBlock}: ${counts.indexed} indexed, ${counts.watched} watched, ${counts.refused} refused (${seconds} s)`,
  );
}

/** A log source's planned pools with a contract: their factories' listings read in one batch, then each verified (verifyPool.ts). */
function contractSource(context: Context, name: keyof typeof logSourceKinds): PlannedSource {
  const kinds: readonly string[] = logSourceKinds[name];
  const planned = plan.pools.contracts.filter((p) => kinds.includes(p.kind));
  return {
    name,
    discovery: plan.pools.discovery.contracts,
    pools: planned,
    describer: async (stateBlock) => {
      const listed = await readListedPools(context.client, planned, stateBlock);
      return (i) =>
        describePlannedPool(context.client, planned[i] as (typeof planned)[number], stateBlock, plan.maxTicksPerPool, listed[i]);
    },
  };
}

/** The planned Uniswap V4 pools: which are initialized read in one batch, then each existing one read (describeV4Pool.ts). */
function v4Source(context: Context): PlannedSource {
  const planned = plan.pools.v4;
  return {
    name: "UniswapV4PoolManager",
    discovery: plan.pools.discovery.v4,
    pools: planned.map((p) => ({ kind: "uniswap-v4", address: p.id })),
    describer: async (stateBlock) => {
      const initialized = await readInitializedV4Pools(
        context.client,
        plan.poolManager,
        planned.map((p) => p.id),
        stateBlock,
      );
      return async (i) =>
        initialized[i]
          ? describeV4Pool(context.client, plan.poolManager, planned[i] as (typeof planned)[number], stateBlock, plan.maxTicksPerPool)
          : uninitializedV4Pool;
    },
  };
}

ponder.on("UniswapV2Pair:setup", ({ context }) =>
  registerAtStart(context, context.contracts.UniswapV2Pair.startBlock, contractSource(context, "UniswapV2Pair")),
);
ponder.on("UniswapV3Pool:setup", ({ context }) =>
  registerAtStart(context, context.contracts.UniswapV3Pool.startBlock, contractSource(context, "UniswapV3Pool")),
);
ponder.on("AerodromePool:setup", ({ context }) =>
  registerAtStart(context, context.contracts.AerodromePool.startBlock, contractSource(context, "AerodromePool")),
);
ponder.on("UniswapV4PoolManager:setup", ({ context }) =>
  registerAtStart(context, context.contracts.UniswapV4PoolManager.startBlock, v4Source(context)),
);
