import type { Context } from "ponder:registry";
import { pool, trackedToken } from "ponder:schema";
import { type Address, type Hex, zeroAddress } from "viem";
import { plan } from "./plan";

export type NewPool = Omit<typeof pool.$inferInsert, "chainId">;

/**
 * Starts indexing a pool that holds at least one verified tracked token, native ETH (a V4 pool's currency
 * address(0)) counting as WETH; false (and nothing stored) otherwise.
 */
export async function registerPool(context: Context, values: NewPool): Promise<boolean> {
  const chainId = context.chain.id;
  const tracked = (token: Address) => context.db.find(trackedToken, { chainId, address: token === zeroAddress ? plan.weth : token });
  const [token0, token1] = [await tracked(values.token0), await tracked(values.token1)];
  if (token0?.status !== "verified" && token1?.status !== "verified") return false;
  await context.db.insert(pool).values({ chainId, ...values });
  return true;
}

/**
 * What a pool first seen at `event` (created then: it was absent at start) starts with: no volume, and a
 * volume window that may start a full window back (a new pool has no swaps before its creation).
 */
export function created(
  event: { block: { number: bigint; timestamp: bigint } },
  identity: { address: Hex; factory: Address; token0: Address; token1: Address },
) {
  return {
    ...identity,
    blockNumber: event.block.number,
    volume0: 0n,
    volume1: 0n,
    volumeSince: event.block.timestamp - BigInt(plan.volumeWindowSeconds),
  };
}
