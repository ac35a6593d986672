import type { Context } from "ponder:registry";
import { type Address, isAddressEqual } from "viem";
import { AerodromePoolAbi } from "../abis/AerodromePoolAbi";
import { AerodromePoolFactoryAbi } from "../abis/AerodromePoolFactoryAbi";
import { SlipstreamCLFactoryAbi } from "../abis/SlipstreamCLFactoryAbi";
import { SlipstreamPoolAbi } from "../abis/SlipstreamPoolAbi";
import { UniswapV2FactoryAbi } from "../abis/UniswapV2FactoryAbi";
import { UniswapV2PairAbi } from "../abis/UniswapV2PairAbi";
import { UniswapV3FactoryAbi } from "../abis/UniswapV3FactoryAbi";
import { UniswapV3PoolAbi } from "../abis/UniswapV3PoolAbi";
import type { CuratedPool } from "./config/indexerEnv";
import type { IndexerPlan } from "./config/indexerPlan";
import { isContractRefusal } from "./isContractRefusal";
import type { InitializedTick } from "./readInitializedTicks";
import type { NewPool } from "./registerPool";

/** A curated pool as verified and read at the start block (with its initialized ticks, for concentrated pools), or why it is refused. */
export type DescribedPool =
  | { ok: true; pool: Omit<NewPool, "blockNumber" | "volume0" | "volume1" | "volumeSince">; ticks?: InitializedTick[] }
  | { ok: false; reason: string };

/**
 * Verifies a curated pool against its factory (the factory must list it under its own tokens and fee,
 * tick spacing or stability) and reads its state, at `blockNumber`.
 */
export async function describeCuratedPool(
  client: Context["client"],
  curated: CuratedPool,
  factories: IndexerPlan["factories"],
  blockNumber: bigint,
): Promise<DescribedPool> {
  const { kind, address } = curated;
  // A wrong address answers nothing: no retries.
  const at = { address, blockNumber, retryEmptyResponse: false } as const;
  try {
    const token0 = await client.readContract({ ...at, abi: UniswapV2PairAbi, functionName: "token0" });
    const token1 = await client.readContract({ ...at, abi: UniswapV2PairAbi, functionName: "token1" });
    const identity = { kind, address, token0, token1 };
    const listedBy = async (
      factory: Address | undefined,
      listed: (factory: Address) => Promise<Address>,
    ): Promise<DescribedPool | undefined> => {
      if (!factory) return { ok: false, reason: `no ${kind} factory is configured on this chain` };
      const found = await listed(factory);
      return isAddressEqual(found, address)
        ? undefined
        : { ok: false, reason: `the ${kind} factory ${factory} lists ${found} for these tokens, not ${address}` };
    };
    const reserves = async () => {
      const [reserve0, reserve1] = await client.readContract({ ...at, abi: AerodromePoolAbi, functionName: "getReserves" });
      return { reserve0, reserve1 };
    };
    switch (kind) {
      case "uniswap-v2": {
        const refusal = await listedBy(factories.uniswapV2, (f) =>
          client.readContract({ abi: UniswapV2FactoryAbi, address: f, blockNumber, functionName: "getPair", args: [token0, token1] }),
        );
        return refusal ?? { ok: true, pool: { ...identity, factory: factories.uniswapV2, ...(await reserves()) } };
      }
      case "aerodrome-volatile":
      case "aerodrome-stable": {
        const stable = await client.readContract({ ...at, abi: AerodromePoolAbi, functionName: "stable" });
        if (stable !== (kind === "aerodrome-stable")) return { ok: false, reason: `stable() is ${stable} on chain, configured ${kind}` };
        const refusal = await listedBy(factories.aerodrome, (f) =>
          client.readContract({
            abi: AerodromePoolFactoryAbi,
            address: f,
            blockNumber,
            functionName: "getPool",
            args: [token0, token1, stable],
          }),
        );
        return refusal ?? { ok: true, pool: { ...identity, factory: factories.aerodrome, ...(await reserves()) } };
      }
      case "uniswap-v3": {
        const fee = await client.readContract({ ...at, abi: UniswapV3PoolAbi, functionName: "fee" });
        const refusal = await listedBy(factories.uniswapV3, (f) =>
          client.readContract({ abi: UniswapV3FactoryAbi, address: f, blockNumber, functionName: "getPool", args: [token0, token1, fee] }),
        );
        if (refusal) return refusal;
        const tickSpacing = await client.readContract({ ...at, abi: UniswapV3PoolAbi, functionName: "tickSpacing" });
        const [sqrtPriceX96, tick] = await client.readContract({ ...at, abi: UniswapV3PoolAbi, functionName: "slot0" });
        const liquidity = await client.readContract({ ...at, abi: UniswapV3PoolAbi, functionName: "liquidity" });
        return { ok: true, pool: { ...identity, factory: factories.uniswapV3, fee, tickSpacing, sqrtPriceX96, tick, liquidity } };
      }
      case "uniswap-v4":
        return { ok: false, reason: "a Uniswap V4 pool is not a contract of its own: curate it in INDEXER_V4_POOLS" };
      case "slipstream": {
        const tickSpacing = await client.readContract({ ...at, abi: SlipstreamPoolAbi, functionName: "tickSpacing" });
        const refusal = await listedBy(factories.slipstream, (f) =>
          client.readContract({
            abi: SlipstreamCLFactoryAbi,
            address: f,
            blockNumber,
            functionName: "getPool",
            args: [token0, token1, tickSpacing],
          }),
        );
        if (refusal) return refusal;
        const [sqrtPriceX96, tick] = await client.readContract({ ...at, abi: SlipstreamPoolAbi, functionName: "slot0" });
        const liquidity = await client.readContract({ ...at, abi: SlipstreamPoolAbi, functionName: "liquidity" });
        return { ok: true, pool: { ...identity, factory: factories.slipstream as Address, tickSpacing, sqrtPriceX96, tick, liquidity } };
      }
    }
  } catch (error) {
    if (!isContractRefusal(error)) throw error;
    return { ok: false, reason: `not a pool of kind ${kind}: ${(error as Error).message.split("\n")[0]}` };
  }
}
