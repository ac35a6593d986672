import type { Context } from "ponder:registry";
import { type Address, isAddressEqual, zeroAddress } from "viem";
import { AerodromePoolAbi } from "../abis/AerodromePoolAbi";
import { SlipstreamPoolAbi } from "../abis/SlipstreamPoolAbi";
import { UniswapV2PairAbi } from "../abis/UniswapV2PairAbi";
import { UniswapV3PoolAbi } from "../abis/UniswapV3PoolAbi";
import type { PlannedPool } from "./config/plannedPools";
import { factoryLookup, type PoolKey } from "./factoryLookup";
import { isContractRefusal } from "./isContractRefusal";

/** Who a verified pool is: its kind, tokens, factory, and its fee or tick spacing where it has them. */
export type PoolIdentity = Pick<PlannedPool, "kind" | "address"> & {
  factory: Address;
  token0: Address;
  token1: Address;
  fee?: number;
  tickSpacing?: number;
};

/** A verified pool's identity, or why it is refused; `absent` when there is no pool there (yet). */
export type VerifiedPool = { ok: true; identity: PoolIdentity } | { ok: false; reason: string; absent: boolean };

/**
 * Verifies a planned pool at `blockNumber`. A derived candidate exists when its factory names it under the
 * derived tokens and fee, tick spacing or stability (`listed`: that answer when it was read already, in a
 * batch): the factory's record, not `eth_getCode`, so a provider that wrongly answers an empty code cannot
 * make an existing pool look absent. A curated pool must have code, and one of its kind's factories must
 * name it under the tokens it holds. Either way the pool must hold those tokens, fee or tick spacing.
 */
export async function verifyPool(
  client: Context["client"],
  planned: PlannedPool,
  blockNumber: bigint,
  listed?: Address,
): Promise<VerifiedPool> {
  const { kind, address, factories, derived } = planned;
  const refused = (reason: string): VerifiedPool => ({ ok: false, reason, absent: false });
  const [firstFactory] = factories;
  if (!firstFactory) return refused(`no ${kind} factory is configured on this chain`);
  try {
    if (derived) {
      const named = listed ?? (await listedBy(client, firstFactory, { kind, ...derived }, blockNumber));
      if (named === undefined) return refused(`a derived ${kind} candidate without its fee or tick spacing`);
      if (isAddressEqual(named, zeroAddress)) return { ok: false, reason: `its factory ${firstFactory} lists no such pool`, absent: true };
      if (!isAddressEqual(named, address))
        return refused(`the ${kind} factory ${firstFactory} lists ${named} for these tokens, not ${address}`);
    } else {
      const code = await client.getCode({ address, blockNumber });
      if (code === undefined || code === "0x") return { ok: false, reason: "no contract at this address", absent: true };
    }
    const held = await readPoolKey(client, planned, blockNumber);
    if (typeof held === "string") return refused(held);
    if (derived) {
      if (!(isAddressEqual(held.token0, derived.token0) && isAddressEqual(held.token1, derived.token1))) {
        return refused(`it holds ${held.token0}/${held.token1}, not the derived ${derived.token0}/${derived.token1}`);
      }
      if (derived.fee !== undefined && held.fee !== derived.fee) return refused(`fee() is ${held.fee} on chain, derived ${derived.fee}`);
      if (derived.tickSpacing !== undefined && held.tickSpacing !== derived.tickSpacing) {
        return refused(`tickSpacing() is ${held.tickSpacing} on chain, derived ${derived.tickSpacing}`);
      }
      return { ok: true, identity: { ...held, address, factory: firstFactory } };
    }
    for (const factory of factories) {
      const named = await listedBy(client, factory, held, blockNumber);
      if (named && isAddressEqual(named, address)) return { ok: true, identity: { ...held, address, factory } };
    }
    return refused(`no ${kind} factory (${factories.join(", ")}) lists ${address} for the tokens it holds`);
  } catch (error) {
    if (!isContractRefusal(error)) throw error;
    return refused(`not a pool of kind ${kind}: ${(error as Error).message.split("\n")[0]}`);
  }
}

/** What `factory` lists for `key` (the zero address: no pool); undefined when the key lacks its fee or tick spacing. */
async function listedBy(client: Context["client"], factory: Address, key: PoolKey, blockNumber: bigint): Promise<Address | undefined> {
  const lookup = factoryLookup(factory, key);
  return lookup && ((await client.readContract({ ...lookup, blockNumber } as never)) as Address);
}

/** The tokens a pool holds and its fee and tick spacing (V3), tick spacing (Slipstream), or why it is not of its planned kind. */
async function readPoolKey(client: Context["client"], planned: PlannedPool, blockNumber: bigint): Promise<PoolKey | string> {
  // A wrong address answers nothing: no retries.
  const at = { address: planned.address, blockNumber, retryEmptyResponse: false } as const;
  const token0 = await client.readContract({ ...at, abi: UniswapV2PairAbi, functionName: "token0" });
  const token1 = await client.readContract({ ...at, abi: UniswapV2PairAbi, functionName: "token1" });
  const { kind } = planned;
  switch (kind) {
    case "uniswap-v2":
      return { kind, token0, token1 };
    case "aerodrome-volatile":
    case "aerodrome-stable": {
      const stable = await client.readContract({ ...at, abi: AerodromePoolAbi, functionName: "stable" });
      return stable === (kind === "aerodrome-stable") ? { kind, token0, token1 } : `stable() is ${stable} on chain, planned ${kind}`;
    }
    case "uniswap-v3": {
      const fee = await client.readContract({ ...at, abi: UniswapV3PoolAbi, functionName: "fee" });
      const tickSpacing = await client.readContract({ ...at, abi: UniswapV3PoolAbi, functionName: "tickSpacing" });
      return { kind, token0, token1, fee, tickSpacing };
    }
    case "slipstream":
      return {
        kind,
        token0,
        token1,
        tickSpacing: await client.readContract({ ...at, abi: SlipstreamPoolAbi, functionName: "tickSpacing" }),
      };
  }
}
