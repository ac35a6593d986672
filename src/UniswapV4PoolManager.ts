import { ponder } from "ponder:registry";
import { pool } from "ponder:schema";
import { applyPositionChange } from "./applyPositionChange";
import { poolDeltaAmounts, recordSwap } from "./recordSwap";
import { created, registerPool } from "./registerPool";

// Uniswap V4 pools, all in the PoolManager and keyed by pool id (stored as the pool's address). On the devnet
// every pool initialized; on mainnet only the curated ids' events reach here (ponder.config.ts filters them),
// and a curated pool initialized before the start block is registered by CuratedPools.ts instead.

ponder.on("UniswapV4PoolManager:Initialize", async ({ event, context }) => {
  const { id, currency0, currency1, fee, tickSpacing, hooks, sqrtPriceX96, tick } = event.args;
  await registerPool(context, {
    kind: "uniswap-v4",
    ...created(event, { address: id, token0: currency0, token1: currency1 }),
    fee,
    tickSpacing,
    hooks,
    sqrtPriceX96,
    tick,
    liquidity: 0n,
  });
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
