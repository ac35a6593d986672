import { createPublicClient, fallback, http } from "viem";
import { baseBlockTimeSeconds } from "../../base/baseChain";

/** The Base block `windowSeconds` before the head: where mainnet sources start when none is pinned. */
export async function recentStartBlock(rpcUrls: string[], windowSeconds: number): Promise<number> {
  const client = createPublicClient({ transport: fallback(rpcUrls.map((url) => http(url))) });
  const head = await client.getBlockNumber();
  return Math.max(0, Number(head) - Math.ceil(windowSeconds / baseBlockTimeSeconds));
}
