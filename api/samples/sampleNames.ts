/** The free frozen samples, one per paid route family (GET /v1/sample?name=): the spec's names. */
export const sampleNames = ["gas-fees", "dex-metrics", "token-price", "whale-signals", "transaction-preflight"] as const;
export type SampleName = (typeof sampleNames)[number];

/**
 * Every frozen capture under samples/: the published samples, and the answers of the payable routes the
 * spec publishes no sample of, kept as those routes' x402 discovery examples.
 */
export const captureNames = [...sampleNames, "audit", "security-score", "trade-simulation"] as const;
export type CaptureName = (typeof captureNames)[number];
