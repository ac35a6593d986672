import { ponder } from "ponder:registry";
import { plan } from "./plan";
import { created, registerPool } from "./registerPool";

// Factory discovery (the devnet): every pool a factory creates. Mainnet tracks a curated list (CuratedPools.ts).
if (plan.pools.discovery === "factory") {
  ponder.on("UniswapV2Factory:PairCreated", async ({ event, context }) => {
    const { token0, token1, pair } = event.args;
    await registerPool(context, { kind: "uniswap-v2", ...created(event, { address: pair, token0, token1 }), reserve0: 0n, reserve1: 0n });
  });

  ponder.on("UniswapV3Factory:PoolCreated", async ({ event, context }) => {
    const { token0, token1, fee, tickSpacing, pool } = event.args;
    await registerPool(context, {
      kind: "uniswap-v3",
      ...created(event, { address: pool, token0, token1 }),
      fee,
      tickSpacing,
      sqrtPriceX96: 0n,
      liquidity: 0n,
      tick: 0,
    });
  });

  ponder.on("AerodromeFactory:PoolCreated", async ({ event, context }) => {
    const { token0, token1, stable, pool } = event.args;
    const kind = stable ? "aerodrome-stable" : "aerodrome-volatile";
    await registerPool(context, { kind, ...created(event, { address: pool, token0, token1 }), reserve0: 0n, reserve1: 0n });
  });
}
