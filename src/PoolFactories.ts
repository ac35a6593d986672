import { ponder } from "ponder:registry";
import type { Address } from "viem";
import { plan } from "./plan";
import { registerPool } from "./registerPool";

// Factory discovery (the devnet): every pool a factory creates. Mainnet tracks a curated list (CuratedPools.ts).
if (plan.pools.discovery === "factory") {
  /**
   * What every pool starts with: its factory, tokens and block, no volume, and a volume window that may
   * start a full window back (a new pool has no swaps before its creation).
   */
  const created = (
    event: { log: { address: Address }; block: { number: bigint; timestamp: bigint } },
    pool: { address: Address; token0: Address; token1: Address },
  ) => ({
    ...pool,
    factory: event.log.address,
    blockNumber: event.block.number,
    volume0: 0n,
    volume1: 0n,
    volumeSince: event.block.timestamp - BigInt(plan.volumeWindowSeconds),
  });

  ponder.on("UniswapV2Factory:PairCreated", async ({ event, context }) => {
    const { token0, token1, pair } = event.args;
    await registerPool(context, { kind: "uniswap-v2", ...created(event, { address: pair, token0, token1 }), reserve0: 0n, reserve1: 0n });
  });

  ponder.on("UniswapV3Factory:PoolCreated", async ({ event, context }) => {
    const { token0, token1, fee, pool } = event.args;
    await registerPool(context, {
      kind: "uniswap-v3",
      ...created(event, { address: pool, token0, token1 }),
      fee,
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
