import type { Address, Hex } from "viem";
import { type DexDeployments, derivePoolCandidates, type PoolCandidate, type PricedToken } from "../../base/poolCandidates";
import type { IndexedPoolKind, PlannedV4Pool } from "./indexerEnv";

/** A pool with its own contract that the indexer plans to index, verified at start. */
export type PlannedPool = {
  kind: Exclude<IndexedPoolKind, "uniswap-v4">;
  address: Address;
  /**
   * The factories one of which must name it: a derived candidate's own; every factory of its kind for a curated
   * pool (Base has several Slipstream CL factories). None where the chain has no factory of its kind (it is then refused).
   */
  factories: Address[];
  /** A derived candidate's identity, which the pool must have: its tokens, and its fee (V3) or tick spacing (Slipstream). */
  derived?: { token0: Address; token1: Address; fee?: number; tickSpacing?: number };
};

/** What the indexer follows: pools with a contract, and Uniswap V4 pools by id and key. */
export type PlannedPools = { contracts: PlannedPool[]; v4: PlannedV4Pool[] };

/**
 * Every distinct candidate pool of the tracked tokens on every DEX of `dexes` (base/poolCandidates.ts): a
 * pool two tokens price each other through (two par stablecoins) is planned once.
 */
export function derivedPools(dexes: DexDeployments, tokens: readonly PricedToken[]): PlannedPools {
  const contracts = new Map<string, PlannedPool>();
  const v4 = new Map<Hex, PlannedV4Pool>();
  for (const c of derivePoolCandidates(dexes, tokens)) {
    if (c.dex === "uniswap-v4") {
      const { token0: currency0, token1: currency1, fee, tickSpacing, hooks } = c;
      v4.set(c.id, { id: c.id, key: { currency0, currency1, fee, tickSpacing, hooks } });
    } else {
      contracts.set(c.address.toLowerCase(), plannedOf(c));
    }
  }
  return { contracts: [...contracts.values()], v4: [...v4.values()] };
}

function plannedOf(c: Exclude<PoolCandidate, { dex: "uniswap-v4" }>): PlannedPool {
  const common = { address: c.address, factories: [c.factory] };
  const tokens = { token0: c.token0, token1: c.token1 };
  switch (c.dex) {
    case "uniswap-v2":
      return { ...common, kind: "uniswap-v2", derived: tokens };
    case "uniswap-v3":
      return { ...common, kind: "uniswap-v3", derived: { ...tokens, fee: c.fee } };
    case "slipstream":
      return { ...common, kind: "slipstream", derived: { ...tokens, tickSpacing: c.tickSpacing } };
    case "aerodrome":
      return { ...common, kind: c.stable ? "aerodrome-stable" : "aerodrome-volatile", derived: tokens };
  }
}

/** The log sources' pools: each source's filter lists the addresses of these kinds (V4: the PoolManager's pool ids). */
export const logSourceKinds = {
  UniswapV2Pair: ["uniswap-v2"],
  UniswapV3Pool: ["uniswap-v3", "slipstream"],
  AerodromePool: ["aerodrome-volatile", "aerodrome-stable"],
} as const satisfies Record<string, readonly PlannedPool["kind"][]>;

/** The addresses a log source's filter lists. */
export function addressesOf(pools: PlannedPools, source: keyof typeof logSourceKinds): Address[] {
  const kinds: readonly string[] = logSourceKinds[source];
  return pools.contracts.filter((p) => kinds.includes(p.kind)).map((p) => p.address);
}
