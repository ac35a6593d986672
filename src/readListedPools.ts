import type { Context } from "ponder:registry";
import type { Address } from "viem";
import { baseMulticall3 } from "../base/baseChain";
import type { PlannedPool } from "./config/plannedPools";
import { factoryLookup } from "./factoryLookup";

/** Factory lookups per Multicall3 aggregate: a getPool is one storage read, so 500 cost about 1.5M gas. */
const lookupsPerCall = 500;

/**
 * What each derived candidate's factory lists under its derived key at `blockNumber` (the zero address: no
 * pool), batched through Multicall3: one `eth_call` per 500 candidates instead of a read per candidate.
 * Undefined for a curated pool or a lookup that failed (verifyPool.ts then asks, or refuses, on its own).
 */
export async function readListedPools(
  client: Context["client"],
  planned: readonly PlannedPool[],
  blockNumber: bigint,
): Promise<(Address | undefined)[]> {
  const lookups = planned.map((p) => {
    const [factory] = p.factories;
    return p.derived && factory ? factoryLookup(factory, { kind: p.kind, ...p.derived }) : undefined;
  });
  const asked = lookups.flatMap((lookup, i) => (lookup ? [{ lookup, i }] : []));
  const listed: (Address | undefined)[] = planned.map(() => undefined);
  for (let from = 0; from < asked.length; from += lookupsPerCall) {
    const batch = asked.slice(from, from + lookupsPerCall);
    const answers = await client.multicall({
      contracts: batch.map((b) => b.lookup) as never,
      allowFailure: true,
      blockNumber,
      // Explicit: viem knows Base's Multicall3 only from its mainnet deployment block on.
      multicallAddress: baseMulticall3,
      batchSize: 0,
    });
    for (const [j, answer] of (answers as { status: string; result?: unknown }[]).entries()) {
      const target = batch[j];
      if (target && answer.status === "success") listed[target.i] = answer.result as Address;
    }
  }
  return listed;
}
