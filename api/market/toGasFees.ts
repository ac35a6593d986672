import { formatGwei } from "viem";
import { basePredeploys } from "../../base/baseChain";
import type { ObservationBlock } from "../chain/ObservationBlock";
import type { GasFees, WeiAmount } from "./GasFees";
import type { GasReading } from "./readGasReading";

/** The transaction `getL1FeeUpperBound` is asked about, named in the answer. */
export type L1FeeExample = { transaction: string; unsignedTxSizeBytes: number };

export type ToGasFeesParameters = {
  reading: GasReading;
  /** The block the reading was made at. */
  block: ObservationBlock;
  percentiles: readonly number[];
  example: L1FeeExample;
  providers: string[];
  reused: boolean;
};

/** An exact wei amount with its exact gwei text. */
export const weiAmount = (wei: bigint): WeiAmount => ({ wei: wei.toString(), gwei: formatGwei(wei) });

/**
 * The GasFees answer of one agreed reading: integers stay exact (decimal strings, gwei by exact decimal
 * shift); the priority fee of each percentile is the median of the window's blocks. `readGasReading`
 * checked the fee history's lengths, so the index fallbacks below never apply.
 */
export function toGasFees({ reading, block, percentiles, example, providers, reused }: ToGasFeesParameters): GasFees {
  const { feeHistory: history, oracle } = reading;
  const count = history.reward.length;
  const ratios = history.gasUsedRatio;
  return {
    chainId: block.chainId,
    network: block.network,
    gasPrice: weiAmount(reading.gasPrice),
    baseFee: {
      observationBlock: weiAmount(history.baseFeePerGas[count - 1] ?? 0n),
      nextBlock: weiAmount(history.baseFeePerGas[count] ?? 0n),
    },
    priorityFees: {
      fromBlock: history.oldestBlock,
      toBlock: history.oldestBlock + count - 1,
      blockCount: count,
      percentiles: percentiles.map((percentile, i) => ({ percentile, ...weiAmount(median(history.reward.map((row) => row[i] ?? 0n))) })),
      blocks: history.reward.map((row, k) => ({
        blockNumber: history.oldestBlock + k,
        baseFeePerGasWei: (history.baseFeePerGas[k] ?? 0n).toString(),
        gasUsedRatio: ratios[k] ?? 0,
        priorityFeesWei: row.map((fee) => fee.toString()),
      })),
    },
    gasUsedRatio: {
      min: Math.min(...ratios),
      mean: ratios.reduce((sum, r) => sum + r, 0) / count,
      max: Math.max(...ratios),
    },
    l1DataFee: {
      oracle: basePredeploys.gasPriceOracle,
      l1BaseFee: weiAmount(oracle.l1BaseFee),
      blobBaseFee: weiAmount(oracle.blobBaseFee),
      baseFeeScalar: oracle.baseFeeScalar.toString(),
      blobBaseFeeScalar: oracle.blobBaseFeeScalar.toString(),
      decimals: oracle.decimals.toString(),
      upperBoundExample: { ...example, l1FeeUpperBound: weiAmount(oracle.getL1FeeUpperBound) },
    },
    reads: { providers, reused },
    provenance: { source: "RPC", observationBlock: block, index: null },
  };
}

/** The median of whole numbers; for an even count the mean of the two middle ones, rounded down. */
export function median(values: readonly bigint[]): bigint {
  const sorted = [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const mid = Math.floor(sorted.length / 2);
  const upper = sorted[mid] ?? 0n;
  return sorted.length % 2 === 1 ? upper : ((sorted[mid - 1] ?? 0n) + upper) / 2n;
}
