import type { ObservationBlock } from "../chain/ObservationBlock";
import type { RpcProvider } from "../chain/providers";
import { type GasReading, type GasReadingRequest, type ProviderGasReading, readGasReading } from "./readGasReading";

/** A reading no single untrusted provider decided, or why there is none. */
export type AgreedGasReading =
  | { kind: "agreed"; reading: GasReading; providers: string[] }
  | { kind: "headMoved" }
  | { kind: "unavailable"; reason: "READ_FAILED" | "PROVIDERS_DISAGREE_ON_READINGS"; message: string };

/**
 * Reads the gas figures at an evidence-grade pinned block by the rule `readAtEvidenceGrade` applies to
 * state: the trusted primary alone; under a public quorum every public provider, and a reading stands
 * only when at least two give it and none gives another. A provider whose head has left the pinned
 * block is left out (its `eth_gasPrice` is of another block); when that leaves too few, the caller pins again.
 */
export async function agreeOnGasReadings(
  block: ObservationBlock,
  providers: readonly RpcProvider[],
  request: GasReadingRequest,
): Promise<AgreedGasReading> {
  const asked =
    block.trustLevel === "TRUSTED_PRIMARY" ? providers.filter((p) => p.name === block.providerName) : providers.filter((p) => !p.trusted);
  const answers = await Promise.all(asked.map((p) => readGasReading(p, block, request)));
  const read = answers.filter((a): a is Extract<ProviderGasReading, { kind: "read" }> => a.kind === "read");
  const distinct = new Set(read.map((a) => canonical(a.reading)));
  if (distinct.size > 1) {
    return {
      kind: "unavailable",
      reason: "PROVIDERS_DISAGREE_ON_READINGS",
      message: `Base RPC providers report different gas figures at block ${block.blockNumber}: no evidence-grade answer`,
    };
  }
  const needed = block.trustLevel === "TRUSTED_PRIMARY" ? 1 : 2;
  const [first] = read;
  if (first && read.length >= needed) return { kind: "agreed", reading: first.reading, providers: read.map((a) => a.provider.name) };
  if (answers.some((a) => a.kind === "headMoved")) return { kind: "headMoved" };
  const reasons = answers.flatMap((a) => (a.kind === "failed" ? [`${a.provider.name}: ${a.reason}`] : []));
  return {
    kind: "unavailable",
    reason: "READ_FAILED",
    message: `the gas figures could not be read at block ${block.blockNumber} at evidence grade (${reasons.join("; ") || "too few providers answered"})`,
  };
}

function canonical(reading: GasReading): string {
  return JSON.stringify(reading, (_, v) => (typeof v === "bigint" ? v.toString() : v));
}
