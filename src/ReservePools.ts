import { type IndexingFunctionArgs, ponder } from "ponder:registry";
import { pool } from "ponder:schema";
import { recordSwap } from "./recordSwap";
import { registerWatchedPool } from "./registerWatchedPool";

// Uniswap V2 pairs and Aerodrome pools: same event fields, different signatures (two contracts, one code path).

/** A pool's first Sync (its first mint) registers a watched candidate created since the start. */
async function onSync({ event, context }: IndexingFunctionArgs<"UniswapV2Pair:Sync" | "AerodromePool:Sync">) {
  const key = { chainId: context.chain.id, address: event.log.address };
  const { reserve0, reserve1 } = event.args;
  if (!(await context.db.find(pool, key))) return registerWatchedPool(context, event, { reserve0, reserve1 });
  await context.db.update(pool, key).set({ reserve0, reserve1, blockNumber: event.block.number });
}

async function onSwap({ event, context }: IndexingFunctionArgs<"UniswapV2Pair:Swap" | "AerodromePool:Swap">) {
  if (!(await context.db.find(pool, { chainId: context.chain.id, address: event.log.address }))) return;
  const { amount0In, amount1In, amount0Out, amount1Out } = event.args;
  await recordSwap(context, event, event.log.address, { amount0In, amount1In, amount0Out, amount1Out });
}

ponder.on("UniswapV2Pair:Sync", onSync);
ponder.on("AerodromePool:Sync", onSync);
ponder.on("UniswapV2Pair:Swap", onSwap);
ponder.on("AerodromePool:Swap", onSwap);
