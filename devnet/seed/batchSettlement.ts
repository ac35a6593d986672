import { BATCH_SETTLEMENT_ADDRESS, ERC3009_DEPOSIT_COLLECTOR_ADDRESS } from "@x402/evm";
import { type Address, getAddress } from "viem";
import { deployFixture, placeFixture, type SeedContext } from "../client";

/** Where @x402/evm 2.27.0 finds the batch-settlement escrow and its ERC-3009 deposit collector on every chain. */
export const batchSettlementAddresses = {
  x402BatchSettlement: getAddress(BATCH_SETTLEMENT_ADDRESS),
  erc3009DepositCollector: getAddress(ERC3009_DEPOSIT_COLLECTOR_ADDRESS),
} as const;

/**
 * Puts x402's batch-settlement escrow and its ERC-3009 deposit collector at the addresses the package names.
 * The escrow has no constructor (its EIP-712 domain is computed on each call from the chain id and
 * address(this)), so its runtime code is placed there as it is. The collector's one immutable is the escrow's
 * address: it is deployed once with that argument, then its runtime code, which holds the immutable, is
 * copied to its canonical address; the throwaway deployment stays unused. Reproducing the mainnet CREATE2
 * deployment is not possible: these are our own contracts, not the audited bytecode.
 */
export async function seedBatchSettlement(ctx: SeedContext): Promise<Record<keyof typeof batchSettlementAddresses, Address>> {
  const { x402BatchSettlement, erc3009DepositCollector } = batchSettlementAddresses;
  await placeFixture(ctx, "x402BatchSettlement", x402BatchSettlement);
  const deployed = await deployFixture(ctx, "ERC3009DepositCollector", [x402BatchSettlement]);
  const runtime = await ctx.client.getCode({ address: deployed });
  if (!runtime) throw new Error("ERC3009DepositCollector has no code after its deployment");
  await ctx.client.setCode({ address: erc3009DepositCollector, bytecode: runtime });
  return { ...batchSettlementAddresses };
}
