import type { BlockCache } from "../chain/createBlockCache";
import type { ObservationBlock } from "../chain/ObservationBlock";
import { pinObservationBlock } from "../chain/pinObservationBlock";
import type { ReadHead } from "../chain/probeProvider";
import type { RpcProvider } from "../chain/providers";
import { type Failure, failure, type Result, success } from "../errors";
import { agreeOnGasReadings } from "./agreeOnGasReadings";
import type { GasFees } from "./GasFees";
import type { GasReading, GasReadingRequest } from "./readGasReading";
import { toGasFees } from "./toGasFees";

/** What one pinned block's reads produced, kept per block and shared between requests. */
export type GasObservation = { reading: GasReading; block: ObservationBlock; providers: string[] };

export type ObserveGasFeesParameters = {
  providers: readonly RpcProvider[];
  chainId: number;
  /** How heads are read to pin a block: shared between requests (`assembleObserveGasFees`), so pinning costs no round trip per request. */
  readHead: ReadHead;
  /** One observation per pinned block. */
  cache: BlockCache<GasObservation>;
  now?: () => Date;
};

/**
 * 20 blocks (40 s of Base): the window op-geth's own price oracle samples for `eth_gasPrice`'s tip
 * (`--gpo.blocks`), so the percentiles describe the same blocks as the gas price beside them.
 */
export const feeHistoryBlocks = 20;

/** The priority-fee percentiles asked of `eth_feeHistory`. */
export const priorityFeePercentiles = [10, 25, 50, 75, 90] as const;

/**
 * The L1 fee example: an ERC-20 `transfer(address,uint256)` as an EIP-1559 transaction on Base (its chain
 * id, a nonce of 200, fee fields of Base's size, 65,000 gas, 68 bytes of calldata) is 112 bytes unsigned.
 */
export const l1FeeExample = {
  transaction: "an ERC-20 transfer(address,uint256) sent as an EIP-1559 transaction (68 bytes of calldata)",
  unsignedTxSizeBytes: 112,
} as const;

const request: GasReadingRequest = {
  blocks: feeHistoryBlocks,
  percentiles: priorityFeePercentiles,
  unsignedTxSizeBytes: l1FeeExample.unsignedTxSizeBytes,
};

/**
 * Base's gas fees at one block pinned at evidence grade: `eth_gasPrice`, the base fee of the next block,
 * priority-fee percentiles over the last `feeHistoryBlocks` blocks and the GasPriceOracle's L1 data-fee
 * parameters, all read at that block. Requests at the same pinned block share one set of reads; when
 * evidence grade cannot be had, DATA_SOURCE_UNAVAILABLE says why (never a partial or default answer).
 */
export async function observeGasFees(deps: ObserveGasFeesParameters): Promise<Result<GasFees>> {
  const now = deps.now ?? (() => new Date());
  const pinned = await pinObservationBlock({ providers: deps.providers, chainId: deps.chainId, now, readHead: deps.readHead });
  if (!pinned.evidenceGrade) return unpinnedRefusal(pinned);
  const { result, reused } = await deps.cache.share(pinned, () => observeAt(deps, pinned, now));
  if (!result.ok) return result;
  const { reading, block, providers } = result.value;
  return success(
    toGasFees({
      reading,
      // retrievedAt is this request's pin; originalRetrievalTime stays the time the reads were made.
      block: { ...block, retrievedAt: pinned.retrievedAt },
      percentiles: priorityFeePercentiles,
      example: l1FeeExample,
      providers,
      reused,
    }),
  );
}

/** Reads at `pinned`; when the head moved on before the reads, pins once more (afresh, unshared) and reads there. */
async function observeAt(deps: ObserveGasFeesParameters, pinned: ObservationBlock, now: () => Date): Promise<Result<GasObservation>> {
  const first = await readAt(deps, pinned);
  if (first !== "headMoved") return first;
  const repinned = await pinObservationBlock({ providers: deps.providers, chainId: deps.chainId, now });
  if (!repinned.evidenceGrade) return unpinnedRefusal(repinned);
  const second = await readAt(deps, repinned);
  if (second !== "headMoved") return second;
  return failure("DATA_SOURCE_UNAVAILABLE", "the chain head moved on twice while the gas fees were being read: retry", {
    reason: "HEAD_MOVED",
    observationBlock: repinned,
  });
}

async function readAt(deps: ObserveGasFeesParameters, block: ObservationBlock): Promise<Result<GasObservation> | "headMoved"> {
  const agreed = await agreeOnGasReadings(block, deps.providers, request);
  if (agreed.kind === "headMoved") return "headMoved";
  if (agreed.kind === "unavailable") {
    return failure("DATA_SOURCE_UNAVAILABLE", agreed.message, { reason: agreed.reason, observationBlock: block });
  }
  return success({ reading: agreed.reading, block, providers: agreed.providers });
}

/** A block that could not be pinned at evidence grade, as a refusal saying which rule failed. */
function unpinnedRefusal(block: ObservationBlock): Failure {
  const messages: Record<string, string> = {
    NO_PROVIDER_ANSWERED: "no Base RPC provider answered: no observation block could be pinned",
    PROVIDERS_DISAGREE_ON_BLOCK_HASH: `Base RPC providers report different hashes for block ${block.blockNumber}: no evidence-grade observation block`,
    NO_PUBLIC_QUORUM: "fewer than two public Base RPC providers agree on the head, and no trusted primary is configured",
  };
  const reason = block.reason ?? "NOT_EVIDENCE_GRADE";
  return failure("DATA_SOURCE_UNAVAILABLE", messages[reason] ?? `no evidence-grade observation block (${reason})`, {
    reason,
    observationBlock: block,
  });
}
