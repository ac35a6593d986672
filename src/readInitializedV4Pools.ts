import type { Context } from "ponder:registry";
import type { Address, Hex } from "viem";
import { UniswapV4PoolManagerAbi } from "../abis/UniswapV4PoolManagerAbi";
import { decodeUniswapV4Slot0, uniswapV4PoolSlots } from "../base/uniswapV4";

/** Slots per `extsload`: one call reads many pools' slot0. */
const slotsPerCall = 500;

/**
 * Which of `ids` the PoolManager holds an initialized pool for at `blockNumber` (a non-zero price in its
 * slot0), read through `extsload` of many slots at once: one call per 500 candidates instead of one each.
 */
export async function readInitializedV4Pools(
  client: Context["client"],
  poolManager: Address,
  ids: readonly Hex[],
  blockNumber: bigint,
): Promise<boolean[]> {
  const initialized: boolean[] = [];
  for (let from = 0; from < ids.length; from += slotsPerCall) {
    const slots = ids.slice(from, from + slotsPerCall).map((id) => uniswapV4PoolSlots(id).slot0);
    const words = (await client.readContract({
      address: poolManager,
      abi: UniswapV4PoolManagerAbi,
      functionName: "extsload",
      args: [slots],
      blockNumber,
    })) as readonly Hex[];
    if (words.length !== slots.length) throw new Error("extsload answered fewer words than asked");
    initialized.push(...words.map((word) => decodeUniswapV4Slot0(word).sqrtPriceX96 !== 0n));
  }
  return initialized;
}
