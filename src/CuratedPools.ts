import { type Context, ponder } from "ponder:registry";
import { poolTick } from "ponder:schema";
import type { Hex } from "viem";
import type { CuratedPool, IndexedPoolKind } from "./config/indexerEnv";
import { type DescribedPool, describeCuratedPool } from "./describeCuratedPool";
import { describeCuratedV4Pool } from "./describeCuratedV4Pool";
import { plan } from "./plan";
import { readV3PoolTicks } from "./readV3PoolTicks";
import { registerPool } from "./registerPool";

// Curated pools (mainnet, or INDEXER_POOLS / INDEXER_V4_POOLS on the devnet): verified and read once as of
// the end of the block before their sources' start block, initialized ticks included; from the start block
// on, their events update them exactly as on the devnet (an event of the start block itself is applied
// once: Mint, Burn and ModifyLiquidity add deltas).
if (plan.pools.discovery === "list") {
  const { curated, curatedV4 } = plan.pools;
  const ofKinds = (...kinds: IndexedPoolKind[]) => curated.filter((p) => kinds.includes(p.kind));

  /** Registers a pool as described just before the start block, with its initial ticks; logs why one is refused. */
  async function registerAtStart(
    context: Context,
    startBlock: number | undefined,
    name: string,
    describe: (stateBlock: bigint) => Promise<DescribedPool>,
  ) {
    if (startBlock === undefined) throw new Error("curated pool sources need a start block");
    const block = await context.client.getBlock({ blockNumber: BigInt(startBlock) });
    const stateBlock = block.number > 0n ? block.number - 1n : 0n;
    const described = await describe(stateBlock);
    const registered =
      described.ok &&
      (await registerPool(context, {
        ...described.pool,
        blockNumber: stateBlock,
        volume0: 0n,
        volume1: 0n,
        // Swaps before the start block are not indexed: the window begins there.
        volumeSince: block.timestamp - 1n,
      }));
    if (!registered) {
      const reason = described.ok ? "it holds no verified tracked token" : described.reason;
      console.warn(`[indexer] curated ${name} refused: ${reason}`);
      return;
    }
    const ticks = described.ticks ?? [];
    if (ticks.length > 0) {
      const chainId = context.chain.id;
      await context.db.insert(poolTick).values(ticks.map((t) => ({ chainId, pool: described.pool.address as Hex, ...t })));
    }
  }

  /** A curated V2-style, V3 or Slipstream pool verified against its factory, with a V3-style pool's ticks. */
  async function describeWithTicks(context: Context, curatedPool: CuratedPool, blockNumber: bigint): Promise<DescribedPool> {
    const described = await describeCuratedPool(context.client, curatedPool, plan.factories, blockNumber);
    const { kind, address } = curatedPool;
    if (!described.ok || (kind !== "uniswap-v3" && kind !== "slipstream")) return described;
    const { tickSpacing } = described.pool;
    if (tickSpacing == null) throw new Error(`describeCuratedPool read no tick spacing for ${kind} pool ${address}`);
    const read = await readV3PoolTicks(context.client, { address, kind, tickSpacing }, blockNumber);
    return read.ok ? { ...described, ticks: read.ticks } : read;
  }

  async function registerCurated(context: Context, pools: CuratedPool[], startBlock: number | undefined) {
    for (const curatedPool of pools) {
      await registerAtStart(context, startBlock, `${curatedPool.kind} pool ${curatedPool.address}`, (stateBlock) =>
        describeWithTicks(context, curatedPool, stateBlock),
      );
    }
  }

  ponder.on("UniswapV2Pair:setup", ({ context }) =>
    registerCurated(context, ofKinds("uniswap-v2"), context.contracts.UniswapV2Pair.startBlock),
  );
  ponder.on("UniswapV3Pool:setup", ({ context }) =>
    registerCurated(context, ofKinds("uniswap-v3", "slipstream"), context.contracts.UniswapV3Pool.startBlock),
  );
  ponder.on("AerodromePool:setup", ({ context }) =>
    registerCurated(context, ofKinds("aerodrome-volatile", "aerodrome-stable"), context.contracts.AerodromePool.startBlock),
  );
  ponder.on("UniswapV4PoolManager:setup", async ({ context }) => {
    for (const curatedPool of curatedV4) {
      await registerAtStart(context, context.contracts.UniswapV4PoolManager.startBlock, `uniswap-v4 pool ${curatedPool.id}`, (stateBlock) =>
        describeCuratedV4Pool(context.client, plan.poolManager, curatedPool, stateBlock),
      );
    }
  });
}
