import type { Context } from "ponder:registry";
import type { Address } from "viem";
import { AerodromePoolAbi } from "../abis/AerodromePoolAbi";
import { SlipstreamPoolAbi } from "../abis/SlipstreamPoolAbi";
import { UniswapV3PoolAbi } from "../abis/UniswapV3PoolAbi";
import type { PlannedPool } from "./config/plannedPools";
import type { InitializedTick } from "./readInitializedTicks";
import { readV3PoolTicks } from "./readV3PoolTicks";
import type { NewPool } from "./registerPool";
import { verifyPool } from "./verifyPool";

/**
 * A planned pool as verified and read at one block (with its initialized ticks, for concentrated pools),
 * or why it is not indexed; `absent` when there is no pool there (yet).
 */
export type DescribedPool =
  | { ok: true; pool: Omit<NewPool, "blockNumber" | "volume0" | "volume1" | "volumeSince">; ticks?: InitializedTick[] }
  | { ok: false; reason: string; absent: boolean };

/**
 * Verifies a planned pool (verifyPool.ts; `listed`: what its factory lists, when read in a batch already) and
 * reads its state at `blockNumber`: reserves, or slot0, liquidity and at most `maxTicks` ticks.
 */
export async function describePlannedPool(
  client: Context["client"],
  planned: PlannedPool,
  blockNumber: bigint,
  maxTicks: number,
  listed?: Address,
): Promise<DescribedPool> {
  const verified = await verifyPool(client, planned, blockNumber, listed);
  if (!verified.ok) return verified;
  const { identity } = verified;
  const at = { address: identity.address, blockNumber } as const;
  if (identity.kind !== "uniswap-v3" && identity.kind !== "slipstream") {
    const [reserve0, reserve1] = await client.readContract({ ...at, abi: AerodromePoolAbi, functionName: "getReserves" });
    return { ok: true, pool: { ...identity, reserve0, reserve1 } };
  }
  const { tickSpacing } = identity;
  if (tickSpacing === undefined) throw new Error(`verifyPool read no tick spacing for ${identity.kind} pool ${identity.address}`);
  // Both slot0 tuples start with sqrtPriceX96 and tick; Slipstream's has no feeProtocol.
  const [sqrtPriceX96, tick] =
    identity.kind === "slipstream"
      ? await client.readContract({ ...at, abi: SlipstreamPoolAbi, functionName: "slot0" })
      : await client.readContract({ ...at, abi: UniswapV3PoolAbi, functionName: "slot0" });
  const liquidity = await client.readContract({ ...at, abi: UniswapV3PoolAbi, functionName: "liquidity" });
  const ticks = await readV3PoolTicks(client, { address: identity.address, tickSpacing }, blockNumber, maxTicks);
  if (!ticks.ok) return { ...ticks, absent: false };
  return { ok: true, pool: { ...identity, sqrtPriceX96, tick, liquidity }, ticks: ticks.ticks };
}
