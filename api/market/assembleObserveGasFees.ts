import { createBlockCache } from "../chain/createBlockCache";
import { probeProvider } from "../chain/probeProvider";
import type { RpcProvider } from "../chain/providers";
import { shareHeadReads } from "../health/shareHeadReads";
import type { GasObservation, ObserveGasFeesParameters } from "./observeGasFees";

export type AssembleObserveGasFeesParameters = {
  providers: readonly RpcProvider[];
  chainId: number;
  /** The chain's block time (2,000 ms on Base; 0 for a devnet that mines on each transaction). */
  blockTimeMs: number;
  now?: () => Date;
};

/**
 * Blocks whose observations are kept: requests pin the head or, through a shared head read, the block
 * before it, and a provider can briefly sit on another fork; four covers all three with room to spare.
 */
export const gasFeesCacheEntries = 4;

/**
 * The gas route's dependencies as the server runs them. Head reads are shared for half a block time: any
 * number of requests then cost each provider at most one head read per half block (one a second on Base),
 * and since at most one block boundary falls within half a block, a shared head is never more than one
 * block behind the chain, so an answer is at most one block old. Observations are kept per block (`gasFeesCacheEntries`).
 */
export function assembleObserveGasFees({
  providers,
  chainId,
  blockTimeMs,
  now,
}: AssembleObserveGasFeesParameters): ObserveGasFeesParameters {
  // A provider that hangs costs a pin half its RPC_TIMEOUT_MS at most (2 s by default).
  const readHead = shareHeadReads(probeProvider, { ttlMs: blockTimeMs / 2, now });
  return { providers, chainId, readHead, cache: createBlockCache<GasObservation>({ maxEntries: gasFeesCacheEntries }), now };
}
