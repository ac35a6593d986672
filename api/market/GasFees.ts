import { z } from "zod";
import { WireAddress } from "../http/params";
import { MarketProvenance } from "./MarketProvenance";

/** An exact on-chain integer as decimal text (JSON numbers cannot carry a uint256). */
const DecimalInteger = z.string().regex(/^(0|[1-9]\d*)$/);

/** An amount of wei, exactly, and the same amount in gwei as exact decimal text (never a float). */
export const WeiAmount = z.strictObject({
  wei: DecimalInteger,
  gwei: z.string().regex(/^(0|[1-9]\d*)(\.\d*[1-9])?$/),
});
export type WeiAmount = z.infer<typeof WeiAmount>;

/** One block of the priority-fee window, as `eth_feeHistory` reports it. */
export const FeeHistoryBlock = z.strictObject({
  blockNumber: z.int().nonnegative(),
  baseFeePerGasWei: DecimalInteger,
  gasUsedRatio: z.number(),
  /** The block's priority fee (tip) at each of `priorityFees.percentiles`, in that order, in wei. */
  priorityFeesWei: z.array(DecimalInteger),
});
export type FeeHistoryBlock = z.infer<typeof FeeHistoryBlock>;

/**
 * Base's gas fees observed at one pinned block: every figure was read at that block from the providers
 * named in `reads`, and stands only where evidence grade was reached (else 503, never a default).
 */
export const GasFees = z.strictObject({
  chainId: z.int(),
  network: z.string(),
  gasPrice: WeiAmount.describe(
    "eth_gasPrice: the provider's suggested legacy gas price (its tip suggestion plus the base fee), asked while its head was the observation block",
  ),
  baseFee: z.strictObject({
    observationBlock: WeiAmount.describe("base fee per gas of the observation block"),
    nextBlock: WeiAmount.describe("base fee per gas of the block after it: the last entry of eth_feeHistory's baseFeePerGas"),
  }),
  priorityFees: z
    .strictObject({
      fromBlock: z.int().nonnegative(),
      toBlock: z.int().nonnegative().describe("the observation block"),
      blockCount: z.int().positive(),
      percentiles: z.array(
        z.strictObject({
          percentile: z.number(),
          ...WeiAmount.shape,
        }),
      ),
      blocks: z.array(FeeHistoryBlock),
    })
    .describe(
      "eth_feeHistory over fromBlock..toBlock: each percentile is the median of the blocks' own percentile (gas-weighted by the node), the mean of the two middle blocks rounded down to a wei for an even count",
    ),
  gasUsedRatio: z
    .strictObject({ min: z.number(), mean: z.number(), max: z.number() })
    .describe("gas used / gas limit over the same blocks, as eth_feeHistory reports it"),
  l1DataFee: z
    .strictObject({
      oracle: WireAddress,
      l1BaseFee: WeiAmount,
      blobBaseFee: WeiAmount,
      baseFeeScalar: DecimalInteger,
      blobBaseFeeScalar: DecimalInteger,
      decimals: DecimalInteger.describe("decimals of the two scalars"),
      upperBoundExample: z.strictObject({
        transaction: z.string(),
        unsignedTxSizeBytes: z.int().positive(),
        l1FeeUpperBound: WeiAmount.describe("getL1FeeUpperBound(unsignedTxSizeBytes): the L1 data fee such a transaction pays at most"),
      }),
    })
    .describe("the L1 data-fee parameters of the GasPriceOracle predeploy, read at the observation block"),
  reads: z.strictObject({
    providers: z
      .array(z.string())
      .describe("the providers whose identical readings make this answer (the trusted primary, or two or more public ones)"),
    reused: z.boolean().describe("true when an earlier request at the same pinned block made these reads"),
  }),
  provenance: MarketProvenance,
});
export type GasFees = z.infer<typeof GasFees>;
