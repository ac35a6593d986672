/** Uniswap V3's and V4's tick range. */
const maxTick = 887_272;

/**
 * The tick bitmap words a pool of `tickSpacing` can use, from MIN_TICK's to MAX_TICK's: one bit per
 * compressed tick (tick / tickSpacing), 256 to a word. At most 6,932 words (tick spacing 1).
 */
export function bitmapWordPositions(tickSpacing: number): number[] {
  const last = Math.trunc(maxTick / tickSpacing) >> 8;
  const first = -Math.trunc(maxTick / tickSpacing) >> 8;
  return Array.from({ length: last - first + 1 }, (_, i) => first + i);
}

/** The initialized ticks that bitmap word `wordPosition` marks. */
export function ticksInWord(wordPosition: number, word: bigint, tickSpacing: number): number[] {
  const ticks: number[] = [];
  for (let bit = 0; word >> BigInt(bit) !== 0n; bit++) {
    if ((word >> BigInt(bit)) & 1n) ticks.push((wordPosition * 256 + bit) * tickSpacing);
  }
  return ticks;
}

/** The initialized ticks of a bitmap, word by word in ascending order. */
export function ticksOfBitmap(words: readonly { wordPosition: number; word: bigint }[], tickSpacing: number): number[] {
  return words.flatMap(({ wordPosition, word }) => ticksInWord(wordPosition, word, tickSpacing));
}
