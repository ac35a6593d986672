import { ponder } from "ponder:registry";
import { pool } from "ponder:schema";
import { applyPositionChange } from "./applyPositionChange";
import { poolDeltaAmounts, recordSwap } from "./recordSwap";
import { registerWatchedPool } from "./registerWatchedPool";

// Uniswap V3 pools and Slipstream CL pools (same events).

// A pool's Initialize is its first event: it registers a watched candidate created since the start.
ponder.on("UniswapV3Pool:Initialize", async ({ event, context }) => {
  const key = { chainId: context.chain.id, address: event.log.address };
  const { sqrtPriceX96, tick } = event.args;
  if (!(await context.db.find(pool, key))) return registerWatchedPool(context, event, { sqrtPriceX96, tick, liquidity: 0n });
  await context.db.update(pool, key).set({ sqrtPriceX96, tick, blockNumber: event.block.number });
});

ponder.on("UniswapV3Pool:Swap", async ({ event, context }) => {
  if (!(await context.db.find(pool, { chainId: context.chain.id, address: event.log.address }))) return;
  const { amount0, amount1, sqrtPriceX96, liquidity, tick } = event.args;
  // V3's amounts are the pool's: positive flows in.
  await recordSwap(context, event, event.log.address, poolDeltaAmounts(amount0, amount1), {
    sqrtPriceX96,
    liquidity,
    tick,
    blockNumber: event.block.number,
  });
});

// Ticks and in-range liquidity follow from the event and the pool's current tick (Slipstream keeps staked
// liquidity apart, in stakedLiquidityNet: its liquidityNet moves exactly as V3's).
ponder.on("UniswapV3Pool:Mint", async ({ event, context }) => {
  const { tickLower, tickUpper, amount } = event.args;
  await applyPositionChange(context, event.log.address, { tickLower, tickUpper, liquidityDelta: amount }, event.block.number);
});

ponder.on("UniswapV3Pool:Burn", async ({ event, context }) => {
  const { tickLower, tickUpper, amount } = event.args;
  await applyPositionChange(context, event.log.address, { tickLower, tickUpper, liquidityDelta: -amount }, event.block.number);
});
