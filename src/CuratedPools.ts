import { type Context, ponder } from "ponder:registry";
import type { CuratedPool, IndexedPoolKind } from "./config/indexerEnv";
import { describeCuratedPool } from "./describeCuratedPool";
import { plan } from "./plan";
import { registerPool } from "./registerPool";

// Curated pools (mainnet, or INDEXER_POOLS): verified against their factory and read once at the source's
// start block; from then on their events update them exactly as on the devnet.
if (plan.pools.discovery === "list") {
  const { curated } = plan.pools;
  const ofKinds = (...kinds: IndexedPoolKind[]) => curated.filter((p) => kinds.includes(p.kind));

  async function registerCurated(context: Context, pools: CuratedPool[], startBlock: number | undefined) {
    if (startBlock === undefined) throw new Error("curated pool sources need a start block");
    const block = await context.client.getBlock({ blockNumber: BigInt(startBlock) });
    for (const curatedPool of pools) {
      const described = await describeCuratedPool(context.client, curatedPool, plan.factories);
      const registered =
        described.ok &&
        (await registerPool(context, {
          ...described.pool,
          blockNumber: block.number,
          volume0: 0n,
          volume1: 0n,
          // Swaps before the start block are not indexed: the window begins there.
          volumeSince: block.timestamp - 1n,
        }));
      if (!registered) {
        const reason = described.ok ? "it holds no verified tracked token" : described.reason;
        console.warn(`[indexer] curated ${curatedPool.kind} pool ${curatedPool.address} refused: ${reason}`);
      }
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
}
