import { z } from "zod";

/** A paid answer as served, kept for retries: its status, content type, body and the headers to serve again. */
export const PaidAnswer = z.object({
  status: z.number().int(),
  contentType: z.string(),
  body: z.string(),
  headers: z.record(z.string(), z.string()),
});
export type PaidAnswer = z.infer<typeof PaidAnswer>;

/** Headers of an answer that are part of what was paid for (its provenance), served again with it. */
export const keptAnswerHeaders = ["x-service-rpc-provider", "x-service-trust-level"] as const;

const BlockOf = z.object({ blockNumber: z.number().int().nonnegative().nullable() });
const Observed = z.union([
  z.object({ observationBlock: BlockOf }).transform((a) => a.observationBlock.blockNumber),
  z.object({ provenance: z.object({ observationBlock: BlockOf }) }).transform((a) => a.provenance.observationBlock.blockNumber),
]);

/** The block a capability or market answer was observed at, or null when its body names none. */
export function observationBlockOf(answer: Pick<PaidAnswer, "body">): number | null {
  try {
    const parsed = Observed.safeParse(JSON.parse(answer.body));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
