import { ponder } from "ponder:registry";
import { plan } from "./plan";
import { registerPool } from "./registerPool";

// Factory discovery (the devnet): every pool a factory creates. Mainnet tracks a curated list (CuratedPools.ts).
if (plan.pools.discovery === "factory") {
  // A new pool has no swaps before its creation, so its volume window may start a full window back.
  const volumeSince = (timestamp: bigint) => timestamp - BigInt(plan.volumeWindowSeconds);

  ponder.on("UniswapV2Factory:PairCreated", async ({ event, context }) => {
    const { token0, token1, pair } = event.args;
    await registerPool(context, {
      kind: "uniswap-v2",
      address: pair,
      factory: event.log.address,
      token0,
      token1,
      reserve0: 0n,
      reserve1: 0n,
      blockNumber: event.block.number,
      volume0: 0n,
      volume1: 0n,
      volumeSince: volumeSince(event.block.timestamp),
    });
  });

  ponder.on("UniswapV3Factory:PoolCreated", async ({ event, context }) => {
    const { token0, token1, fee, pool } = event.args;
    await registerPool(context, {
      kind: "uniswap-v3",
      address: pool,
      factory: event.log.address,
      token0,
      token1,
      fee,
      sqrtPriceX96: 0n,
      liquidity: 0n,
      tick: 0,
      blockNumber: event.block.number,
      volume0: 0n,
      volume1: 0n,
      volumeSince: volumeSince(event.block.timestamp),
    });
  });

  ponder.on("AerodromeFactory:PoolCreated", async ({ event, context }) => {
    const { token0, token1, stable, pool } = event.args;
    await registerPool(context, {
      kind: stable ? "aerodrome-stable" : "aerodrome-volatile",
      address: pool,
      factory: event.log.address,
      token0,
      token1,
      reserve0: 0n,
      reserve1: 0n,
      blockNumber: event.block.number,
      volume0: 0n,
      volume1: 0n,
      volumeSince: volumeSince(event.block.timestamp),
    });
  });
}
