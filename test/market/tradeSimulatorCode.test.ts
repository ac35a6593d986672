import type { AbiFunction } from "viem";
import { formatAbiItem } from "viem/utils";
import { describe, expect, it } from "vitest";
import { tradeSimulatorAbi, tradeSimulatorRuntime } from "../../api/market/tradeSimulatorCode";
import { artifactOf, compileFixtures } from "../../devnet/compile";

describe("tradeSimulatorCode", () => {
  it("is what TradeSimulator.sol compiles to (regenerate with scripts/writeTradeSimulatorCode.ts)", () => {
    const artifact = artifactOf(compileFixtures(), "TradeSimulator");
    const simulate = artifact.abi.find((e): e is AbiFunction => e.type === "function" && e.name === "simulate");
    expect(tradeSimulatorRuntime).toBe(artifact.deployedBytecode);
    expect(tradeSimulatorAbi.map((item) => formatAbiItem(item))).toEqual([formatAbiItem(simulate as AbiFunction)]);
  });
});
