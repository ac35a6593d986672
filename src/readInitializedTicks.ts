import { bitmapWordPositions, ticksOfBitmap } from "./tickBitmap";

/** A concentrated pool's initialized tick as the pool holds it. */
export type InitializedTick = { tick: number; liquidityNet: bigint; liquidityGross: bigint };

export type ReadTicksResult = { ok: true; ticks: InitializedTick[] } | { ok: false; reason: string };

/** Reads (calls or storage slots) per batch: one Multicall3 aggregate, or one extsload of many slots. */
const readBatchSize = 500;

/** How one pool's bitmap words and tick liquidities are read, a batch at a time, at one block. */
export type TickReader = {
  words(wordPositions: number[]): Promise<bigint[]>;
  liquidities(ticks: number[]): Promise<{ liquidityGross: bigint; liquidityNet: bigint }[]>;
};

/**
 * Every initialized tick of a V3-style or V4 pool of `tickSpacing`: all its bitmap words (at most 6,932,
 * at tick spacing 1), then the liquidity of each tick they mark, in batches of 500 reads. A pool with more
 * than `maxTicks` (INDEXER_MAX_TICKS_PER_POOL; one read each) is refused: its depth could not be exact.
 */
export async function readInitializedTicks(tickSpacing: number, maxTicks: number, reader: TickReader): Promise<ReadTicksResult> {
  const words = [];
  for (const batch of inBatches(bitmapWordPositions(tickSpacing))) {
    const values = await reader.words(batch);
    words.push(...batch.map((wordPosition, i) => ({ wordPosition, word: answerTo(values, i) })));
  }
  const initialized = ticksOfBitmap(words, tickSpacing);
  if (initialized.length > maxTicks) {
    return {
      ok: false,
      reason: `${initialized.length} initialized ticks, more than the ${maxTicks} read at start (INDEXER_MAX_TICKS_PER_POOL)`,
    };
  }
  const ticks: InitializedTick[] = [];
  for (const batch of inBatches(initialized)) {
    const liquidities = await reader.liquidities(batch);
    ticks.push(...batch.map((tick, i) => ({ tick, ...answerTo(liquidities, i) })));
  }
  return { ok: true, ticks };
}

/** The reader's answer to the i-th read of a batch: one per read, in order. */
function answerTo<T>(answers: readonly T[], i: number): T {
  const answer = answers[i];
  if (answer === undefined) throw new Error(`a batched read returned ${answers.length} answers, fewer than asked`);
  return answer;
}

function inBatches<T>(items: readonly T[]): T[][] {
  return Array.from({ length: Math.ceil(items.length / readBatchSize) }, (_, i) => items.slice(i * readBatchSize, (i + 1) * readBatchSize));
}
