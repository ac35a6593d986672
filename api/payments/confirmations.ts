/** Blocks that must be built on a payment's block before it redeems (head - payment block). */
export const requiredConfirmations = 3;
