import type { ObservationBlock } from "../chain/ObservationBlock";
import { pinObservationBlock } from "../chain/pinObservationBlock";
import type { ReadHead } from "../chain/probeProvider";
import type { RpcProvider } from "../chain/providers";
import { failure, type Result, success } from "../errors";
import type { IndexDb } from "../index/indexDb";
import { readChainHead } from "../index/readChainHead";
import { shareReads } from "../memo/shareReads";
import { buildMarketSnapshot, type MarketRules, type MarketSnapshot } from "./buildMarketSnapshot";
import type { MarketProvenance } from "./MarketProvenance";
import { parStableSymbols } from "./marketSymbols";

export type ReadMarketParameters = {
  indexDb: IndexDb;
  chainId: number;
  providers: readonly RpcProvider[];
  /** How provider heads are read: shared across requests for up to a second (api/health/shareHeadReads.ts). */
  readHead: ReadHead;
  /** Blocks the index may trail the chain head before market answers refuse it as stale. */
  maxIndexLagBlocks: number;
  rules: MarketRules;
  /**
   * How long one read of the index head serves every request (default 0: only reads in flight are
   * shared). Under load each request reading it would queue on the index store (PGlite serves one query
   * at a time, between the indexer's writes).
   */
  indexHeadTtlMs?: number;
  /** How long one pin of the chain head serves every request (default: `indexHeadTtlMs`); each request would pin anew a head the providers' shared reads already answered. */
  chainHeadTtlMs?: number;
};

/** The rules the service prices by: the par stablecoins, the spec's five deepest pools, a configured minimum depth. */
export function marketRules(minPoolDepthUsd: number, volumeWindowSeconds: number): MarketRules {
  return { parStableSymbols, minDepthUsd: { num: BigInt(minPoolDepthUsd), den: 1n }, maxPools: 5, volumeWindowSeconds };
}

/** The market at the newest indexed block, with where it came from. */
export type MarketReading = { snapshot: MarketSnapshot; provenance: MarketProvenance };

export type ReadMarket = () => Promise<Result<MarketReading>>;

/**
 * The market as the index-backed routes answer from it, or why not (503 DATA_SOURCE_UNAVAILABLE): the
 * chain head must be pinned at evidence grade, and the index must be within `maxIndexLagBlocks` of it.
 * One snapshot is built per indexed block and shared by every request that reads that block; while it
 * is being built, requests wait for the same build. One reading (or refusal) is given to every request
 * while the pin and the snapshot stay the same objects, so answers derived from it can be kept per reading.
 */
export function createReadMarket(deps: ReadMarketParameters): ReadMarket {
  let cached: { hash: string; snapshot: Promise<MarketSnapshot | null> } | null = null;
  const indexHeadTtlMs = deps.indexHeadTtlMs ?? 0;
  const readIndexHead = shareReads(
    () => readChainHead(deps.indexDb, deps.chainId),
    () => "head",
    { ttlMs: indexHeadTtlMs },
  );
  const pinChainHead = shareReads(
    () => pinObservationBlock({ providers: deps.providers, chainId: deps.chainId, readHead: deps.readHead }),
    () => "head",
    { ttlMs: deps.chainHeadTtlMs ?? indexHeadTtlMs },
  );
  /** The last answer, given again while neither the pinned block nor the snapshot changed: answers derived from it are memoised per reading. */
  let last: { observationBlock: ObservationBlock; snapshot: MarketSnapshot; reading: Result<MarketReading> } | null = null;

  const snapshotAt = async (hash: string) => {
    if (cached?.hash !== hash) {
      const snapshot = buildMarketSnapshot(deps.indexDb, deps.chainId, deps.rules);
      cached = { hash, snapshot };
      // A failed build, or one that saw the index move on each attempt, is not kept: the next request tries again.
      const forget = () => {
        if (cached?.snapshot === snapshot) cached = null;
      };
      snapshot.then((built) => built ?? forget(), forget);
    }
    return cached.snapshot;
  };

  return async () => {
    const observationBlock = await pinChainHead();
    if (!observationBlock.evidenceGrade || observationBlock.blockNumber === null) {
      return unavailable(`the chain head cannot be read at evidence grade (${observationBlock.reason})`, observationBlock);
    }
    let latest: MarketSnapshot | null;
    try {
      latest = await snapshotAt((await readIndexHead())?.hash ?? "none");
    } catch {
      return unavailable("the index store cannot be read", observationBlock);
    }
    if (!latest) return unavailable("the index has no consistent head yet", observationBlock);
    if (last?.observationBlock !== observationBlock || last.snapshot !== latest) {
      last = {
        observationBlock,
        snapshot: latest,
        reading: readingAt(observationBlock, observationBlock.blockNumber, latest, deps),
      };
    }
    return last.reading;
  };
}

/** The reading of `latest` against the chain head pinned at `pinned`, or why it cannot be served. */
function readingAt(
  observationBlock: ObservationBlock,
  pinned: number,
  latest: MarketSnapshot,
  deps: ReadMarketParameters,
): Result<MarketReading> {
  const headBlock = Number(latest.head.number);
  // The pinned head is shared for up to a second, so the index may be a block past it: that is no lag.
  const lagBlocks = Math.max(0, pinned - headBlock);
  if (headBlock === pinned && latest.head.hash !== observationBlock.blockHash) {
    return unavailable(`the index's block ${headBlock} is not the chain's (a reorg it has not followed yet)`, observationBlock);
  }
  if (lagBlocks > deps.maxIndexLagBlocks) {
    return unavailable(
      `the index is ${lagBlocks} blocks behind the chain head (the bound is ${deps.maxIndexLagBlocks}): no stale value is served`,
      observationBlock,
    );
  }
  return success({
    snapshot: latest,
    provenance: {
      source: "INDEX",
      observationBlock,
      index: {
        headBlock,
        headHash: latest.head.hash,
        headTimestamp: new Date(Number(latest.head.timestamp) * 1000).toISOString(),
        lagBlocks,
        maxLagBlocks: deps.maxIndexLagBlocks,
      },
    },
  });
}

function unavailable(message: string, observationBlock: ObservationBlock) {
  return failure("DATA_SOURCE_UNAVAILABLE", message, { observationBlock });
}
