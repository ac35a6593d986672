import { type Address, type Hex, parseEventLogs } from "viem";
import { AerodromePoolAbi } from "../../abis/AerodromePoolAbi";
import { Erc20Abi } from "../../abis/Erc20Abi";
import { UniswapV2PairAbi } from "../../abis/UniswapV2PairAbi";
import { UniswapV3PoolAbi } from "../../abis/UniswapV3PoolAbi";
import type { DevnetClient } from "../../devnet/client";
import type { PoolRow } from "../support/indexedTables";

/** What the chain says, read independently of the indexer, to compare its tables with. */
export function chainTruth(client: DevnetClient) {
  const timestamps = new Map<bigint, Promise<bigint>>();
  const timestampOf = (blockNumber: bigint): Promise<bigint> => {
    let timestamp = timestamps.get(blockNumber);
    if (!timestamp) {
      timestamp = client.getBlock({ blockNumber }).then((b) => b.timestamp);
      timestamps.set(blockNumber, timestamp);
    }
    return timestamp;
  };

  return {
    timestampOf,

    /** A pool's state at `blockNumber`, in the pool table's columns. */
    async poolState(pool: PoolRow, blockNumber: bigint) {
      const at = { address: pool.address, blockNumber } as const;
      if (pool.kind === "uniswap-v3" || pool.kind === "slipstream") {
        const [sqrtPriceX96, tick] = await client.readContract({ ...at, abi: UniswapV3PoolAbi, functionName: "slot0" });
        const liquidity = await client.readContract({ ...at, abi: UniswapV3PoolAbi, functionName: "liquidity" });
        return { reserve0: null, reserve1: null, sqrtPriceX96, liquidity, tick };
      }
      const [reserve0, reserve1] = await client.readContract({ ...at, abi: AerodromePoolAbi, functionName: "getReserves" });
      return { reserve0, reserve1, sqrtPriceX96: null, liquidity: null, tick: null };
    },

    /** Every swap of `pools` up to `toBlock`, as (in, out) base units like the swap table. */
    async swaps(pools: Address[], toBlock: bigint) {
      const logs = await client.getLogs({ address: pools, fromBlock: 0n, toBlock });
      const parsed = [
        ...parseEventLogs({ abi: UniswapV2PairAbi, eventName: "Swap", logs }).map((log) => ({ log, ...log.args })),
        ...parseEventLogs({ abi: AerodromePoolAbi, eventName: "Swap", logs }).map((log) => ({ log, ...log.args })),
        ...parseEventLogs({ abi: UniswapV3PoolAbi, eventName: "Swap", logs }).map((log) => {
          const { amount0, amount1 } = log.args;
          return {
            log,
            amount0In: amount0 > 0n ? amount0 : 0n,
            amount1In: amount1 > 0n ? amount1 : 0n,
            amount0Out: amount0 < 0n ? -amount0 : 0n,
            amount1Out: amount1 < 0n ? -amount1 : 0n,
          };
        }),
      ];
      return Promise.all(
        parsed.map(async ({ log, amount0In, amount1In, amount0Out, amount1Out }) => ({
          txHash: log.transactionHash,
          blockNumber: log.blockNumber,
          logIndex: log.logIndex,
          pool: log.address,
          timestamp: await timestampOf(log.blockNumber),
          amount0In,
          amount1In,
          amount0Out,
          amount1Out,
        })),
      );
    },

    /** Transfer events of `tokens` in [fromBlock, toBlock], or only those to `to`. */
    async transfers(tokens: Address[], fromBlock: bigint, toBlock: bigint, to?: Address) {
      const logs = await client.getLogs({ address: tokens, event: Erc20Abi[0], args: to ? { to } : undefined, fromBlock, toBlock });
      return Promise.all(
        logs.map(async (log) => ({
          txHash: log.transactionHash,
          logIndex: log.logIndex,
          token: log.address,
          blockNumber: log.blockNumber,
          blockHash: log.blockHash,
          timestamp: await timestampOf(log.blockNumber),
          from: log.args.from as Address,
          to: log.args.to as Address,
          amount: log.args.value as bigint,
        })),
      );
    },
  };
}

/** `${txHash}-${logIndex}`, lowercase: how a transfer row and a log are matched. */
export const eventKey = (e: { txHash: Hex; logIndex: number }) => `${e.txHash.toLowerCase()}-${e.logIndex}`;

/** `${blockNumber}-${logIndex}`: how a swap row (keyed so) and a log are matched. */
export const swapKey = (e: { blockNumber: bigint; logIndex: number }) => `${e.blockNumber}-${e.logIndex}`;
