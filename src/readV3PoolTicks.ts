import type { Context } from "ponder:registry";
import type { Address } from "viem";
import { SlipstreamPoolAbi } from "../abis/SlipstreamPoolAbi";
import { UniswapV3PoolAbi } from "../abis/UniswapV3PoolAbi";
import { baseMulticall3 } from "../base/baseChain";
import { type ReadTicksResult, readInitializedTicks } from "./readInitializedTicks";

/**
 * Every initialized tick of a Uniswap V3 or Slipstream pool at `blockNumber` (refused past `maxTicks`):
 * `tickBitmap(word)` for each word, then `ticks(t)` of each tick they mark, batched through Multicall3.
 */
export function readV3PoolTicks(
  client: Context["client"],
  pool: { address: Address; kind: "uniswap-v3" | "slipstream"; tickSpacing: number },
  blockNumber: bigint,
  maxTicks: number,
): Promise<ReadTicksResult> {
  // Both pools' ticks() start with liquidityGross and liquidityNet; Slipstream's tuple is longer.
  const abi = pool.kind === "slipstream" ? SlipstreamPoolAbi : UniswapV3PoolAbi;
  const multicall = <T>(functionName: "tickBitmap" | "ticks", args: number[]) =>
    client.multicall({
      contracts: args.map((arg) => ({ address: pool.address, abi, functionName, args: [arg] })) as never,
      allowFailure: false,
      blockNumber,
      // Explicit: viem knows Base's Multicall3 only from its mainnet deployment block on.
      multicallAddress: baseMulticall3,
      // One aggregate per batch: the batches are sized already.
      batchSize: 0,
    }) as Promise<T[]>;
  return readInitializedTicks(pool.tickSpacing, maxTicks, {
    words: (wordPositions) => multicall<bigint>("tickBitmap", wordPositions),
    liquidities: async (ticks) =>
      (await multicall<readonly [bigint, bigint]>("ticks", ticks)).map(([liquidityGross, liquidityNet]) => ({
        liquidityGross,
        liquidityNet,
      })),
  });
}
