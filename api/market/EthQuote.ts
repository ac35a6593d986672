/** How many wei buy one US dollar, from a live market observation. */
export type EthQuoteValue = { wei: bigint; observedAt: string; source: string };

/**
 * The live ETH price a purchase intent freezes its wei amount from (the indexed WETH price). Null
 * when no live quote exists: the intent then offers USDC only, never a guessed ETH amount.
 */
export type EthQuote = { weiPerUsd(): Promise<EthQuoteValue | null> };
