/**
 * Bounds on the work of one contract observation. Anyone, the free demo's callers included, names the
 * address observed, so what that contract answers (a Diamond's loupe above all) must never set how much
 * is read or dissected. Each bound, when reached, makes the resolution `INCOMPLETE` with its stable
 * reason code; nothing beyond it is guessed.
 */
export type ObservationLimits = {
  /** Distinct Diamond facets whose code is read and dissected (`DIAMOND_FACET_LIMIT` beyond). */
  diamondFacets: number;
  /** Function selectors taken from one loupe `facets()` answer, all facets together (`DIAMOND_SELECTOR_LIMIT` beyond). */
  loupeSelectors: number;
  /** Runtime bytecode bytes dissected per observation, path and facets together (`BYTECODE_BUDGET_EXCEEDED` beyond). */
  dissectedBytecodeBytes: number;
};

/**
 * The limits every observation runs under. 256 facets and 4,096 selectors are well above
 * the Diamonds we know (tens of facets, hundreds of selectors). 4 MiB is 170 codes of Base's maximum size
 * (24,576 bytes, EIP-170), while 256 such facets would be 6 MiB: it caps the CPU of a crafted Diamond at
 * about 170 worst-case dissections (3-8 ms each measured on 2 busy cores) and the answer's size with it.
 */
export const observationLimits: ObservationLimits = {
  diamondFacets: 256,
  loupeSelectors: 4096,
  dissectedBytecodeBytes: 4 * 1024 * 1024,
};
