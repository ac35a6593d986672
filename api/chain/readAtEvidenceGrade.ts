import { createPinnedReader, type PinnedRead } from "./createPinnedReader";
import type { ObservationBlock } from "./ObservationBlock";
import type { RpcProvider } from "./providers";

/** One read's outcome that no single untrusted provider decided. */
export type EvidenceGradeRead =
  | { ok: true; value: `0x${string}` }
  | { ok: false; reverted: true }
  | { ok: false; reverted: false; reason: string };

/**
 * Reads `reads` at an evidence-grade pinned block so that no single untrusted provider decides the
 * answer: the trusted primary alone; under a public quorum, every public provider is asked at the
 * block's hash and an answer stands only when at least two give it and none gives another (a provider
 * on another fork cannot read that hash and is left out). Anything less is an unavailable read.
 */
export async function readAtEvidenceGrade(
  block: ObservationBlock,
  providers: readonly RpcProvider[],
  reads: readonly PinnedRead[],
): Promise<EvidenceGradeRead[]> {
  if (!block.evidenceGrade) return reads.map(() => ({ ok: false, reverted: false, reason: block.reason ?? "no evidence-grade block" }));
  if (block.trustLevel === "TRUSTED_PRIMARY") {
    const primary = providers.filter((p) => p.name === block.providerName);
    return (await createPinnedReader(block, primary).read(reads)).map((r) =>
      r.ok ? r : r.reverted ? { ok: false, reverted: true } : { ok: false, reverted: false, reason: r.error },
    );
  }
  const publicProviders = providers.filter((p) => !p.trusted);
  const answers = await Promise.all(publicProviders.map((p) => createPinnedReader(block, [p]).read(reads)));
  return reads.map((_, i) => {
    const outcomes = answers.map((a) => a[i]).filter((o) => o !== undefined && (o.ok || o.reverted));
    const distinct = new Set(outcomes.map((o) => (o?.ok ? o.value : "revert")));
    if (distinct.size !== 1 || outcomes.length < 2) {
      return { ok: false, reverted: false, reason: distinct.size > 1 ? "providers disagree" : "too few providers answered" };
    }
    const [answer] = distinct;
    return answer === "revert" ? { ok: false, reverted: true } : { ok: true, value: answer as `0x${string}` };
  });
}
