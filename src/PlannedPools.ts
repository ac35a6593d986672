import { type Context, ponder } from "ponder:registry";
import { poolCandidate, poolTick } from "ponder:schema";
import type { Hex } from "viem";
import type { IndexedPoolKind } from "./config/indexerEnv";
import { logSourceKinds } from "./config/plannedPools";
import { type DescribedPool, describePlannedPool } from "./describePlannedPool";
import { describeV4Pool } from "./describeV4Pool";
import { plan } from "./plan";
import { registerPool } from "./registerPool";

// The planned pools (derived candidates, or INDEXER_POOLS / INDEXER_V4_POOLS): each verified and read once as
// of the end of the block before their sources' start block, initialized ticks included; from the start
// block on, their events update them (an event of the start block itself is applied once: Mint, Burn and
// ModifyLiquidity add deltas). A derived candidate with no pool yet is watched (registerWatchedPool.ts).

/** Pools verified and read at once: reads overlap, writes stay in order. */
const describeConcurrency = 16;

type Planned = { kind: IndexedPoolKind; address: Hex; describe: (stateBlock: bigint) => Promise<DescribedPool> };

/** Verifies and registers `pools` as of just before `startBlock`, records each one's outcome, and logs a summary. */
async function registerAtStart(context: Context, source: string, startBlock: number | undefined, pools: Planned[]) {
  if (startBlock === undefined) throw new Error("pool sources need a start block");
  const started = Date.now();
  const block = await context.client.getBlock({ blockNumber: BigInt(startBlock) });
  const stateBlock = block.number > 0n ? block.number - 1n : 0n;
  const chainId = context.chain.id;
  const counts = { indexed: 0, watched: 0, refused: 0 };
  for (let i = 0; i < pools.length; i += describeConcurrency) {
    const batch = pools.slice(i, i + describeConcurrency);
    const described = await Promise.all(batch.map((p) => p.describe(stateBlock)));
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
        }));
      const outcome: { status: "indexed" | "watched" | "refused"; reason: string | null } = registered
        ? { status: "indexed", reason: null }
        : !result.ok && result.absent && plan.pools.discovery === "derived"
          ? { status: "watched", reason: null }
          : { status: "refused", reason: result.ok ? "it holds no verified tracked token" : result.reason };
      counts[outcome.status] += 1;
      await context.db.insert(poolCandidate).values({ chainId, address, kind, ...outcome });
      if (outcome.status === "refused") {
        const mode = plan.pools.discovery === "list" ? "curated" : "derived";
        console.warn(`[indexer] ${mode} ${kind} pool ${address} refused: ${outcome.reason}`);
      }
      const ticks = result.ok && registered ? (result.ticks ?? []) : [];
      if (ticks.length > 0) await context.db.insert(poolTick).values(ticks.map((t) => ({ chainId, pool: address, ...t })));
    }
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.info(
    `[indexer] ${source}: ${pools.length} planned pools at block ${stateBlock}: ${counts.indexed} indexed, ${counts.watched} watched, ${counts.refused} refused (${seconds} s)`,
  );
}

/** A source's planned pools with a contract, each described through its factory. */
function plannedOf(context: Context, source: keyof typeof logSourceKinds): Planned[] {
  const kinds: readonly string[] = logSourceKinds[source];
  return plan.pools.contracts
    .filter((p) => kinds.includes(p.kind))
    .map((p) => ({
      kind: p.kind,
      address: p.address,
      describe: (stateBlock) => describePlannedPool(context.client, p, stateBlock, plan.maxTicksPerPool),
    }));
}

ponder.on("UniswapV2Pair:setup", ({ context }) =>
  registerAtStart(context, "UniswapV2Pair", context.contracts.UniswapV2Pair.startBlock, plannedOf(context, "UniswapV2Pair")),
);
ponder.on("UniswapV3Pool:setup", ({ context }) =>
  registerAtStart(context, "UniswapV3Pool", context.contracts.UniswapV3Pool.startBlock, plannedOf(context, "UniswapV3Pool")),
);
ponder.on("AerodromePool:setup", ({ context }) =>
  registerAtStart(context, "AerodromePool", context.contracts.AerodromePool.startBlock, plannedOf(context, "AerodromePool")),
);
ponder.on("UniswapV4PoolManager:setup", ({ context }) =>
  registerAtStart(
    context,
    "UniswapV4PoolManager",
    context.contracts.UniswapV4PoolManager.startBlock,
    plan.pools.v4.map((p) => ({
      kind: "uniswap-v4",
      address: p.id,
      describe: (stateBlock) => describeV4Pool(context.client, plan.poolManager, p, stateBlock, plan.maxTicksPerPool),
    })),
  ),
);
