import { type IndexingFunctionArgs, ponder } from "ponder:registry";
import { pool } from "ponder:schema";
import { UniswapV3PoolAbi } from "../abis/UniswapV3PoolAbi";
import { recordSwap } from "./recordSwap";

// Uniswap V3 pools and Slipstream CL pools (same events).

ponder.on("UniswapV3Pool:Initialize", async ({ event, context }) => {
  const key = { chainId: context.chain.id, address: event.log.address };
  if (!(await context.db.find(pool, key))) return;
  const { sqrtPriceX96, tick } = event.args;
  await context.db.update(pool, key).set({ sqrtPriceX96, tick, blockNumber: event.block.number });
});

ponder.on("UniswapV3Pool:Swap", async ({ event, context }) => {
  if (!(await context.db.find(pool, { chainId: context.chain.id, address: event.log.address }))) return;
  const { amount0, amount1, sqrtPriceX96, liquidity, tick } = event.args;
  // Positive amounts flow into the pool.
  const amounts = {
    amount0In: amount0 > 0n ? amount0 : 0n,
    amount1In: amount1 > 0n ? amount1 : 0n,
    amount0Out: amount0 < 0n ? -amount0 : 0n,
    amount1Out: amount1 < 0n ? -amount1 : 0n,
  };
  await recordSwap(context, event, amounts, { sqrtPriceX96, liquidity, tick, blockNumber: event.block.number });
});

// In-range liquidity moves only when a position spans the current tick (and Slipstream counts staked
// liquidity apart): reading it at the event's block is exact for every implementation.
async function onLiquidityChange({ event, context }: IndexingFunctionArgs<"UniswapV3Pool:Mint" | "UniswapV3Pool:Burn">) {
  const key = { chainId: context.chain.id, address: event.log.address };
  if (!(await context.db.find(pool, key))) return;
  const liquidity = await context.client.readContract({ abi: UniswapV3PoolAbi, address: event.log.address, functionName: "liquidity" });
  await context.db.update(pool, key).set({ liquidity, blockNumber: event.block.number });
}

ponder.on("UniswapV3Pool:Mint", onLiquidityChange);
ponder.on("UniswapV3Pool:Burn", onLiquidityChange);
