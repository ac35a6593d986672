import { encodeFunctionData } from "viem";
import { z } from "zod";
import { GasPriceOracleAbi } from "../../abis/GasPriceOracleAbi";
import { basePredeploys } from "../../base/baseChain";
import type { ObservationBlock } from "../chain/ObservationBlock";
import { transportError } from "../chain/probeProvider";
import type { RpcProvider } from "../chain/providers";
import { type RpcOutcome, type RpcRequest, rpcBatch } from "../chain/rpcBatch";

/** The GasPriceOracle views read; each answers one 32-byte word (uint32 scalars included). */
const oracleViews = ["l1BaseFee", "blobBaseFee", "baseFeeScalar", "blobBaseFeeScalar", "decimals", "getL1FeeUpperBound"] as const;
export type OracleView = (typeof oracleViews)[number];

/** Everything the gas answer is made of, as one provider reported it at the pinned block. */
export type GasReading = {
  gasPrice: bigint;
  feeHistory: { oldestBlock: number; baseFeePerGas: bigint[]; gasUsedRatio: number[]; reward: bigint[][] };
  oracle: Record<OracleView, bigint>;
};

/** One provider's reading, or why it has none: its head left the pinned block, or a read failed. */
export type ProviderGasReading =
  | { kind: "read"; provider: RpcProvider; reading: GasReading }
  | { kind: "headMoved"; provider: RpcProvider }
  | { kind: "failed"; provider: RpcProvider; reason: string };

export type GasReadingRequest = {
  /** Blocks of `eth_feeHistory`, ending at the pinned block. */
  blocks: number;
  percentiles: readonly number[];
  /** The transaction size `getL1FeeUpperBound` is asked about. */
  unsignedTxSizeBytes: number;
};

const quantity = z
  .string()
  .regex(/^0x[0-9a-fA-F]+$/)
  .transform((h) => BigInt(h));
const Head = z.object({ hash: z.string().regex(/^0x[0-9a-fA-F]{64}$/), baseFeePerGas: quantity });
const FeeHistory = z.object({
  oldestBlock: quantity,
  baseFeePerGas: z.array(quantity),
  gasUsedRatio: z.array(z.number()),
  reward: z.array(z.array(quantity)),
});
const word = z
  .string()
  .regex(/^0x[0-9a-fA-F]{64}$/)
  .transform((h) => BigInt(h));

/**
 * Asks one provider, in one JSON-RPC batch (one round trip): its head, `eth_gasPrice`, `eth_feeHistory`
 * ending at the pinned block number, the GasPriceOracle's views at the pinned block hash, and its head
 * again. `eth_gasPrice` and `eth_feeHistory` take no block hash, so the reading counts only when the head
 * before and after them is the pinned block, and the fee history's entry for that block matches its header.
 */
export async function readGasReading(
  provider: RpcProvider,
  block: ObservationBlock,
  request: GasReadingRequest,
): Promise<ProviderGasReading> {
  const at = { blockHash: block.blockHash };
  const oracleCall = (view: OracleView): RpcRequest => ({
    method: "eth_call",
    params: [
      {
        to: basePredeploys.gasPriceOracle,
        data:
          view === "getL1FeeUpperBound"
            ? encodeFunctionData({ abi: GasPriceOracleAbi, functionName: view, args: [BigInt(request.unsignedTxSizeBytes)] })
            : encodeFunctionData({ abi: GasPriceOracleAbi, functionName: view }),
      },
      at,
    ],
  });
  const head: RpcRequest = { method: "eth_getBlockByNumber", params: ["latest", false] };
  const outcomes = await rpcBatch(provider, [
    head,
    { method: "eth_gasPrice", params: [] },
    { method: "eth_feeHistory", params: [`0x${request.blocks.toString(16)}`, block.blockTag, request.percentiles] },
    ...oracleViews.map(oracleCall),
    head,
  ]);
  const failed = (reason: string): ProviderGasReading => ({ kind: "failed", provider, reason });

  const [before, gasPrice, history, ...rest] = outcomes;
  const after = rest.pop();
  const head0 = parse(before, "eth_getBlockByNumber(latest)", Head);
  const head1 = parse(after, "eth_getBlockByNumber(latest)", Head);
  if (!head0.ok) return failed(head0.reason);
  if (!head1.ok) return failed(head1.reason);
  if (head0.value.hash.toLowerCase() !== block.blockHash || head1.value.hash.toLowerCase() !== block.blockHash) {
    return { kind: "headMoved", provider };
  }
  const price = parse(gasPrice, "eth_gasPrice", quantity);
  if (!price.ok) return failed(price.reason);
  const fees = parse(history, "eth_feeHistory", FeeHistory);
  if (!fees.ok) return failed(fees.reason);
  const feeHistory = { ...fees.value, oldestBlock: Number(fees.value.oldestBlock) };
  if (!describesPinnedBlock(feeHistory, block, head0.value.baseFeePerGas, request.percentiles.length)) {
    return failed("eth_feeHistory does not describe the pinned block");
  }
  const oracle = {} as Record<OracleView, bigint>;
  for (const [i, view] of oracleViews.entries()) {
    const value = parse(rest[i], `GasPriceOracle ${view}()`, word);
    if (!value.ok) return failed(value.reason);
    oracle[view] = value.value;
  }
  return { kind: "read", provider, reading: { gasPrice: price.value, feeHistory, oracle } };
}

/** One answer of the batch through its schema, or why it cannot be used (the provider's own error text is not repeated). */
function parse<S extends z.ZodType>(
  outcome: RpcOutcome | undefined,
  what: string,
  schema: S,
): { ok: true; value: z.output<S> } | { ok: false; reason: string } {
  if (!outcome?.ok) {
    const reverted = outcome?.code === 3 || /revert/i.test(outcome?.error ?? "");
    return { ok: false, reason: reverted ? `${what} reverted` : `${what} failed: ${transportError(outcome?.error)}` };
  }
  const parsed = schema.safeParse(outcome.result);
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false, reason: `${what} answered a malformed result` };
}

/** The window ends at the pinned block, is whole, and its entry for that block is the pinned header's base fee. */
function describesPinnedBlock(
  history: GasReading["feeHistory"],
  block: ObservationBlock,
  pinnedBaseFee: bigint,
  percentileCount: number,
): boolean {
  const count = history.reward.length;
  return (
    count > 0 &&
    history.gasUsedRatio.length === count &&
    history.baseFeePerGas.length === count + 1 &&
    history.reward.every((row) => row.length === percentileCount) &&
    history.oldestBlock + count - 1 === block.blockNumber &&
    history.baseFeePerGas[count - 1] === pinnedBaseFee
  );
}
