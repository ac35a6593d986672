import { ponder } from "ponder:registry";
import { pool, poolCandidate } from "ponder:schema";
import { applyPositionChange } from "./applyPositionChange";
import { plan } from "./plan";
import { poolDeltaAmounts, recordSwap } from "./recordSwap";
import { created, registerPool } from "./registerPool";

// Uniswap V4 pools, all in the PoolManager and keyed by pool id (stored as the pool's address). Only the
// planned ids' events reach here (ponder.config.ts filters them); a pool initialized before the start block
// is registered by PlannedPools.ts.

const plannedIds = new Set(plan.pools.v4.map((p) => p.id));

/**
 * Initialize is a V4 pool's first event: a watched candidate initialized since the start is registered.
 * Its id is the hash of the key the event carries, so the key is the planned one.
 */
ponder.on("UniswapV4PoolManager:Initialize", async ({ event, context }) => {
  const { id, currency0, currency1, fee, tickSpacing, hooks, sqrtPriceX96, tick } = event.args;
  const key = { chainId: context.chain.id, address: id };
  if (!plannedIds.has(id) || (await context.db.find(poolCandidate, key))?.status !== "watched") return;
  const registered = await registerPool(context, {
    kind: "uniswap-v4",
    ...created(event, { address: id, factory: event.log.address, token0: currency0, token1: currency1 }),
    fee,
    tickSpacing,
    hooks,
    sqrtPriceX96,
    tick,
    liquidity: 0n,
  });
  await context.db
    .update(poolCandidate, key)
    .set(registered ? { status: "indexed" } : { status: "refused", reason: "it holds no verified tracked token" });
});

ponder.on("UniswapV4PoolManager:Swap", async ({ event, context }) => {
  const { id, amount0, amount1, sqrtPriceX96, liquidity, tick } = event.args;
  if (!(await context.db.find(pool, { chainId: context.chain.id, address: id }))) return;
  // V4's amounts are the swapper's: negative is what it paid into the pool, the opposite of V3's signs.
  await recordSwap(context, event, id, poolDeltaAmounts(-amount0, -amount1), {
    sqrtPriceX96,
    liquidity,
    tick,
    blockNumber: event.block.number,
  });
});

ponder.on("UniswapV4PoolManager:ModifyLiquidity", async ({ event, context }) => {
  const { id, tickLower, tickUpper, liquidityDelta } = event.args;
  await applyPositionChange(context, id, { tickLower, tickUpper, liquidityDelta }, event.block.number);
});
