/** The free frozen samples, one per paid route family (GET /v1/sample?name=). */
export const sampleNames = ["gas-fees", "dex-metrics", "token-price", "whale-signals", "transaction-preflight"] as const;
export type SampleName = (typeof sampleNames)[number];
