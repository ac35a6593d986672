import { type Address, type Hex, parseEventLogs } from "viem";
import { AerodromePoolAbi } from "../../abis/AerodromePoolAbi";
import { Erc20Abi } from "../../abis/Erc20Abi";
import { SlipstreamPoolAbi } from "../../abis/SlipstreamPoolAbi";
import { UniswapV2PairAbi } from "../../abis/UniswapV2PairAbi";
import { UniswapV3PoolAbi } from "../../abis/UniswapV3PoolAbi";
import { UniswapV4PoolManagerAbi } from "../../abis/UniswapV4PoolManagerAbi";
import { baseMulticall3 } from "../../base/baseChain";
import { decodeUniswapV4Liquidity, decodeUniswapV4Slot0, decodeUniswapV4TickLiquidity, uniswapV4PoolSlots } from "../../base/uniswapV4";
import type { DevnetClient } from "../../devnet/client";
import type { PoolRow } from "./indexedTables";

/** What locates a pool's state on chain: its address (a V4 pool's id and PoolManager), kind and tick spacing. */
type PoolIdentity = Pick<PoolRow, "address" | "kind" | "factory" | "tickSpacing">;

/** The PoolManager's storage words at `slots` (V4's StateLibrary reads), at `blockNumber`. */
async function extsload(client: DevnetClient, poolManager: Address, slots: Hex[], blockNumber: bigint): Promise<Hex[]> {
  const words: Hex[] = [];
  for (let i = 0; i < slots.length; i += 1000) {
    const batch = slots.slice(i, i + 1000);
    words.push(
      ...(await client.readContract({
        address: poolManager,
        abi: UniswapV4PoolManagerAbi,
        functionName: "extsload",
        args: [batch],
        blockNumber,
      })),
    );
  }
  return words;
}

/** Every bitmap word position a pool of `tickSpacing` can use: compressed ticks ±887272 / tickSpacing, 256 a word. */
function wordPositions(tickSpacing: number): number[] {
  const compressedMax = Math.trunc(887_272 / tickSpacing);
  const [first, last] = [Math.floor(-compressedMax / 256), Math.floor(compressedMax / 256)];
  return Array.from({ length: last - first + 1 }, (_, i) => first + i);
}

/** The ticks whose bits are set in each word. */
function markedTicks(words: { position: number; bits: bigint }[], tickSpacing: number): number[] {
  return words.flatMap(({ position, bits }) =>
    Array.from({ length: 256 }, (_, bit) => bit)
      .filter((bit) => (bits >> BigInt(bit)) & 1n)
      .map((bit) => (position * 256 + bit) * tickSpacing),
  );
}

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
    async poolState(pool: PoolIdentity, blockNumber: bigint) {
      if (pool.kind === "uniswap-v4") {
        const slots = uniswapV4PoolSlots(pool.address);
        const [slot0 = "0x0", liquidity = "0x0"] = await extsload(client, pool.factory, [slots.slot0, slots.liquidity], blockNumber);
        const { sqrtPriceX96, tick } = decodeUniswapV4Slot0(slot0);
        return { reserve0: null, reserve1: null, sqrtPriceX96, liquidity: decodeUniswapV4Liquidity(liquidity), tick };
      }
      const at = { address: pool.address, blockNumber } as const;
      if (pool.kind === "slipstream") {
        const [sqrtPriceX96, tick] = await client.readContract({ ...at, abi: SlipstreamPoolAbi, functionName: "slot0" });
        const liquidity = await client.readContract({ ...at, abi: SlipstreamPoolAbi, functionName: "liquidity" });
        return { reserve0: null, reserve1: null, sqrtPriceX96, liquidity, tick };
      }
      if (pool.kind === "uniswap-v3") {
        const [sqrtPriceX96, tick] = await client.readContract({ ...at, abi: UniswapV3PoolAbi, functionName: "slot0" });
        const liquidity = await client.readContract({ ...at, abi: UniswapV3PoolAbi, functionName: "liquidity" });
        return { reserve0: null, reserve1: null, sqrtPriceX96, liquidity, tick };
      }
      const [reserve0, reserve1] = await client.readContract({ ...at, abi: AerodromePoolAbi, functionName: "getReserves" });
      return { reserve0, reserve1, sqrtPriceX96: null, liquidity: null, tick: null };
    },

    /**
     * Every initialized tick of a V3-style or V4 pool at `blockNumber`, walking its whole tick bitmap
     * (`tickBitmap` and `ticks`, or the PoolManager's storage), as the pool_tick table's rows.
     */
    async ticks(pool: PoolIdentity, blockNumber: bigint) {
      const { tickSpacing } = pool;
      if (tickSpacing === null) throw new Error(`${pool.address} has no tick spacing: not a concentrated pool`);
      const positions = wordPositions(tickSpacing);
      if (pool.kind === "uniswap-v4") {
        const slots = uniswapV4PoolSlots(pool.address);
        const words = await extsload(client, pool.factory, positions.map(slots.tickBitmapWord), blockNumber);
        const ticks = markedTicks(
          positions.map((position, i) => ({ position, bits: BigInt(words[i] ?? "0x0") })),
          tickSpacing,
        );
        const infos = await extsload(client, pool.factory, ticks.map(slots.tick), blockNumber);
        return ticks.map((tick, i) => ({ pool: pool.address, tick, ...decodeUniswapV4TickLiquidity(infos[i] ?? "0x0") }));
      }
      // Both pools' ticks() start with liquidityGross and liquidityNet.
      const abi = pool.kind === "slipstream" ? SlipstreamPoolAbi : UniswapV3PoolAbi;
      const call = <T>(functionName: "tickBitmap" | "ticks", args: number[]) =>
        client.multicall({
          contracts: args.map((arg) => ({ address: pool.address, abi, functionName, args: [arg] })) as never,
          allowFailure: false,
          blockNumber,
          // viem knows Base's Multicall3 only from its mainnet deployment block on.
          multicallAddress: baseMulticall3,
          batchSize: 50_000,
        }) as Promise<T[]>;
      const bitmap = await call<bigint>("tickBitmap", positions);
      const ticks = markedTicks(
        positions.map((position, i) => ({ position, bits: bitmap[i] ?? 0n })),
        tickSpacing,
      );
      const infos = await call<readonly [bigint, bigint]>("ticks", ticks);
      return infos.map(([liquidityGross, liquidityNet], i) => ({
        pool: pool.address,
        tick: ticks[i] as number,
        liquidityGross,
        liquidityNet,
      }));
    },

    /** Every swap of `pools` (V4 pools by id) up to `toBlock`, as (in, out) base units like the swap table. */
    async swaps(pools: PoolRow[], toBlock: bigint) {
      const v4 = pools.filter((p) => p.kind === "uniswap-v4");
      const addresses = [...pools.filter((p) => p.kind !== "uniswap-v4").map((p) => p.address), ...new Set(v4.map((p) => p.factory))];
      const v4Ids = new Set(v4.map((p) => p.address.toLowerCase()));
      const logs = await client.getLogs({ address: addresses, fromBlock: 0n, toBlock });
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
        // V4's amounts are the swapper's: negative is paid into the pool.
        ...parseEventLogs({ abi: UniswapV4PoolManagerAbi, eventName: "Swap", logs })
          .filter((log) => v4Ids.has(log.args.id.toLowerCase()))
          .map((log) => {
            const { id, amount0, amount1 } = log.args;
            return {
              log: { ...log, address: id },
              amount0In: amount0 < 0n ? -amount0 : 0n,
              amount1In: amount1 < 0n ? -amount1 : 0n,
              amount0Out: amount0 > 0n ? amount0 : 0n,
              amount1Out: amount1 > 0n ? amount1 : 0n,
            };
          }),
      ];
      return Promise.all(
        parsed.map(async ({ log, amount0In, amount1In, amount0Out, amount1Out }) => ({
          txHash: log.transactionHash,
          blockNumber: log.blockNumber,
          logIndex: log.logIndex,
          pool: log.address as Hex,
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
