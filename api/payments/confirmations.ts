/** Confirmations a payment needs before it redeems. */
export const requiredConfirmations = 3;

/**
 * Confirmations of a block when the chain's head is `head`, as wallets and explorers count them: the
 * block itself is the first (`head - block + 1`); 0 while the head has not reached it. USDC and ETH
 * payments and the status page all count with this function.
 */
export function countConfirmations(head: bigint | number, block: bigint | number): number {
  const count = BigInt(head) - BigInt(block) + 1n;
  return count > 0n ? Number(count) : 0;
}
