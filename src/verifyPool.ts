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
import type { PlannedPool } from "./config/plannedPools";
import { isContractRefusal } from "./isContractRefusal";

/** Who a verified pool is: its kind, tokens, factory, and its fee or tick spacing where it has them. */
export type PoolIdentity = Pick<PlannedPool, "kind" | "address"> & {
  factory: Address;
  token0: Address;
  token1: Address;
  fee?: number;
  tickSpacing?: number;
};

/** A verified pool's identity, or why it is refused; `absent` when no contract is there (yet). */
export type VerifiedPool = { ok: true; identity: PoolIdentity } | { ok: false; reason: string; absent: boolean };

/**
 * Verifies a planned pool at `blockNumber`: a contract is there; it holds the derived tokens (a curated
 * pool: whatever it holds), with the derived fee or tick spacing; and its factory names it under its
 * tokens and fee, tick spacing or stability.
 */
export async function verifyPool(client: Context["client"], planned: PlannedPool, blockNumber: bigint): Promise<VerifiedPool> {
  const { kind, address, factory, derived } = planned;
  const refused = (reason: string): VerifiedPool => ({ ok: false, reason, absent: false });
  // A wrong address answers nothing: no retries.
  const at = { address, blockNumber, retryEmptyResponse: false } as const;
  const code = await client.getCode({ address, blockNumber });
  if (code === undefined || code === "0x") return { ok: false, reason: "no contract at this address", absent: true };
  if (!factory) return refused(`no ${kind} factory is configured on this chain`);
  try {
    const token0 = await client.readContract({ ...at, abi: UniswapV2PairAbi, functionName: "token0" });
    const token1 = await client.readContract({ ...at, abi: UniswapV2PairAbi, functionName: "token1" });
    if (derived && !(isAddressEqual(token0, derived.token0) && isAddressEqual(token1, derived.token1))) {
      return refused(`it holds ${token0}/${token1}, not the derived ${derived.token0}/${derived.token1}`);
    }
    const read = { address: factory, blockNumber } as const;
    let tier: { fee?: number; tickSpacing?: number } = {};
    let listed: Address;
    switch (kind) {
      case "uniswap-v2":
        listed = await client.readContract({ ...read, abi: UniswapV2FactoryAbi, functionName: "getPair", args: [token0, token1] });
        break;
      case "aerodrome-volatile":
      case "aerodrome-stable": {
        const stable = await client.readContract({ ...at, abi: AerodromePoolAbi, functionName: "stable" });
        if (stable !== (kind === "aerodrome-stable")) return refused(`stable() is ${stable} on chain, planned ${kind}`);
        listed = await client.readContract({
          ...read,
          abi: AerodromePoolFactoryAbi,
          functionName: "getPool",
          args: [token0, token1, stable],
        });
        break;
      }
      case "uniswap-v3": {
        const fee = await client.readContract({ ...at, abi: UniswapV3PoolAbi, functionName: "fee" });
        if (derived?.fee !== undefined && fee !== derived.fee) return refused(`fee() is ${fee} on chain, derived ${derived.fee}`);
        tier = { fee, tickSpacing: await client.readContract({ ...at, abi: UniswapV3PoolAbi, functionName: "tickSpacing" }) };
        listed = await client.readContract({ ...read, abi: UniswapV3FactoryAbi, functionName: "getPool", args: [token0, token1, fee] });
        break;
      }
      case "slipstream": {
        const tickSpacing = await client.readContract({ ...at, abi: SlipstreamPoolAbi, functionName: "tickSpacing" });
        if (derived?.tickSpacing !== undefined && tickSpacing !== derived.tickSpacing) {
          return refused(`tickSpacing() is ${tickSpacing} on chain, derived ${derived.tickSpacing}`);
        }
        tier = { tickSpacing };
        listed = await client.readContract({
          ...read,
          abi: SlipstreamCLFactoryAbi,
          functionName: "getPool",
          args: [token0, token1, tickSpacing],
        });
        break;
      }
    }
    if (!isAddressEqual(listed, address)) return refused(`the ${kind} factory ${factory} lists ${listed} for these tokens, not ${address}`);
    return { ok: true, identity: { kind, address, factory, token0, token1, ...tier } };
  } catch (error) {
    if (!isContractRefusal(error)) throw error;
    return refused(`not a pool of kind ${kind}: ${(error as Error).message.split("\n")[0]}`);
  }
}
