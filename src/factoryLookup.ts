import type { Address } from "viem";
import { AerodromePoolFactoryAbi } from "../abis/AerodromePoolFactoryAbi";
import { SlipstreamCLFactoryAbi } from "../abis/SlipstreamCLFactoryAbi";
import { UniswapV2FactoryAbi } from "../abis/UniswapV2FactoryAbi";
import { UniswapV3FactoryAbi } from "../abis/UniswapV3FactoryAbi";
import type { PlannedPool } from "./config/plannedPools";

/** What a factory is asked: the pool of these tokens, under this fee (V3), tick spacing (Slipstream) or stability (Aerodrome). */
export type PoolKey = { kind: PlannedPool["kind"]; token0: Address; token1: Address; fee?: number; tickSpacing?: number };

/**
 * The read that asks `factory` which pool it created for `key` (`getPair` / `getPool`): the factory's own
 * record, so its answer (the zero address: none) is what says whether a pool exists. Undefined when the key
 * lacks the fee or tick spacing its kind needs.
 */
export function factoryLookup(factory: Address, key: PoolKey) {
  const tokens = [key.token0, key.token1] as const;
  switch (key.kind) {
    case "uniswap-v2":
      return { address: factory, abi: UniswapV2FactoryAbi, functionName: "getPair", args: tokens } as const;
    case "aerodrome-volatile":
    case "aerodrome-stable":
      return {
        address: factory,
        abi: AerodromePoolFactoryAbi,
        functionName: "getPool",
        args: [...tokens, key.kind === "aerodrome-stable"],
      } as const;
    case "uniswap-v3":
      if (key.fee === undefined) return undefined;
      return { address: factory, abi: UniswapV3FactoryAbi, functionName: "getPool", args: [...tokens, key.fee] } as const;
    case "slipstream":
      if (key.tickSpacing === undefined) return undefined;
      return { address: factory, abi: SlipstreamCLFactoryAbi, functionName: "getPool", args: [...tokens, key.tickSpacing] } as const;
  }
}
