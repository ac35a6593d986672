import type { Context } from "hono";
import type { Result } from "../errors";
import { answerJson } from "./jsonAnswer";
import { observationError, type ProvenanceBlock, provenanceHeaders } from "./provenance";

/** An observation's answer: its block at the top (capability), or in its provenance (market). */
type Observed = { observationBlock: ProvenanceBlock } | { provenance: { observationBlock: ProvenanceBlock } };

const blockOf = (value: Observed) => ("provenance" in value ? value.provenance.observationBlock : value.observationBlock);

/**
 * A service's observation as a route's answer: 200 with the provenance headers of its pinned block, or
 * its refusal thrown with those of the block it could (not) pin. `shared`: the answer object is one
 * many requests share (a market reading), whose JSON text is made once.
 */
export async function answerObservation<T extends Observed>(c: Context, result: Result<T>, { shared = false } = {}) {
  if (!result.ok) throw observationError(result);
  return answerJson(c, result.value, { headers: provenanceHeaders(blockOf(result.value)), shared });
}
