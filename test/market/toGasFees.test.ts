import { encodeFunctionData, erc20Abi, parseGwei, serializeTransaction, size } from "viem";
import { describe, expect, test } from "vitest";
import { GasFees } from "../../api/market/GasFees";
import { l1FeeExample, priorityFeePercentiles } from "../../api/market/observeGasFees";
import type { GasReading } from "../../api/market/readGasReading";
import { median, toGasFees, weiAmount } from "../../api/market/toGasFees";
import { pinnedBlock } from "../support/observationBlock";

const block = pinnedBlock(103);

/** Four blocks, 100..103, each with its five percentiles. */
const reading: GasReading = {
  gasPrice: 1_234_567_891n,
  feeHistory: {
    oldestBlock: 100,
    baseFeePerGas: [10n, 11n, 12n, 13n, 7n],
    gasUsedRatio: [0.5, 0.25, 1, 0],
    reward: [
      [1n, 2n, 3n, 4n, 5n],
      [0n, 0n, 0n, 0n, 0n],
      [10n, 20n, 30n, 40n, 50n],
      [3n, 3n, 4n, 1_000_000_001n, 9n],
    ],
  },
  oracle: {
    l1BaseFee: 1_500_000_000n,
    blobBaseFee: 1n,
    baseFeeScalar: 2269n,
    blobBaseFeeScalar: 1_055_762n,
    decimals: 6n,
    getL1FeeUpperBound: 42n,
  },
};

describe("toGasFees", () => {
  test("default: the window, both base fees, exact gwei text and the medians of each percentile", () => {
    const fees = GasFees.parse(
      toGasFees({ reading, block, percentiles: priorityFeePercentiles, example: l1FeeExample, providers: ["primary"], reused: false }),
    );
    expect(fees.gasPrice).toEqual({ wei: "1234567891", gwei: "1.234567891" });
    expect(fees.baseFee).toEqual({ observationBlock: weiAmount(13n), nextBlock: weiAmount(7n) });
    expect(fees.priorityFees).toMatchObject({ fromBlock: 100, toBlock: 103, blockCount: 4 });
    // Four blocks: the mean of the two middle ones, rounded down to a wei (p25: 0, 2, 3, 20 gives 2; p75: 0, 4, 40, 1000000001 gives 22).
    expect(fees.priorityFees.percentiles.map((p) => [p.percentile, p.wei])).toEqual([
      [10, "2"],
      [25, "2"],
      [50, "3"],
      [75, "22"],
      [90, "7"],
    ]);
    expect(fees.priorityFees.blocks[3]).toEqual({
      blockNumber: 103,
      baseFeePerGasWei: "13",
      gasUsedRatio: 0,
      priorityFeesWei: ["3", "3", "4", "1000000001", "9"],
    });
    expect(fees.gasUsedRatio).toEqual({ min: 0, mean: 0.4375, max: 1 });
    expect(fees.l1DataFee).toMatchObject({ baseFeeScalar: "2269", blobBaseFeeScalar: "1055762", decimals: "6" });
    expect(fees.provenance).toEqual({ source: "RPC", observationBlock: block, index: null });
  });

  test("behavior: gwei is the exact decimal shift of wei, never a float", () => {
    for (const wei of [0n, 1n, 999_999_999n, 10n ** 9n, 123_456_789_012_345_678_901_234_567_890n]) {
      const amount = weiAmount(wei);
      expect(parseGwei(amount.gwei), amount.gwei).toBe(wei);
      expect(GasFees.shape.gasPrice.parse(amount)).toEqual(amount);
    }
    expect(weiAmount(1n).gwei).toBe("0.000000001");
    expect(weiAmount(10n ** 9n).gwei).toBe("1");
  });

  test("behavior: the median of an odd count is the middle value, of an even count the floor of the middle two's mean", () => {
    expect(median([5n, 1n, 3n])).toBe(3n);
    expect(median([4n, 1n, 2n, 3n])).toBe(2n);
    expect(median([7n])).toBe(7n);
  });

  test("behavior: the L1 fee example's size is the transaction it names, serialized", () => {
    const data = encodeFunctionData({ abi: erc20Abi, functionName: "transfer", args: [`0x${"11".repeat(20)}`, 1_000_000n] });
    const transfer = serializeTransaction({
      type: "eip1559",
      chainId: 8453,
      nonce: 200,
      maxPriorityFeePerGas: parseGwei("0.001"),
      maxFeePerGas: parseGwei("0.01"),
      gas: 65_000n,
      to: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
      value: 0n,
      data,
    });
    expect(size(data)).toBe(68);
    expect(size(transfer)).toBe(l1FeeExample.unsignedTxSizeBytes);
  });
});
