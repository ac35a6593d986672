import type { PublicClient } from "viem";

/**
 * Blocks the index trails the chain now: the head read from the chain minus the block the indexer's
 * Ponder server reports at `statusUrl` (its `/status`); infinite while it reports none.
 */
export async function indexLag(chain: Pick<PublicClient, "getBlockNumber">, statusUrl: string): Promise<number> {
  const [head, status] = await Promise.all([chain.getBlockNumber({ cacheTime: 0 }), fetch(statusUrl).then((r) => r.json())]);
  const indexed = (status as { base?: { block: { number: number } } }).base?.block.number;
  return indexed === undefined ? Number.POSITIVE_INFINITY : Math.max(0, Number(head) - indexed);
}
