import { BATCH_SETTLEMENT_ADDRESS, ERC3009_DEPOSIT_COLLECTOR_ADDRESS } from "@x402/evm";
import { type Abi, type Address, encodeDeployData, getAddress, type Hex, keccak256 } from "viem";
import { placeFixture, type SeedContext } from "../client";
import { artifactOf } from "../compile";

/** Where @x402/evm 2.27.0 finds the batch-settlement escrow and its ERC-3009 deposit collector on every chain. */
export const batchSettlementAddresses = {
  x402BatchSettlement: getAddress(BATCH_SETTLEMENT_ADDRESS),
  erc3009DepositCollector: getAddress(ERC3009_DEPOSIT_COLLECTOR_ADDRESS),
} as const;

/**
 * Puts x402's batch-settlement escrow and its ERC-3009 deposit collector at the addresses the package names.
 * The escrow has no constructor (its EIP-712 domain is computed on each call from the chain id and
 * address(this)), so its runtime code is placed there as it is. The collector's one immutable is the escrow's
 * address: its constructor runs in an `eth_call` (no transaction, so the deployer's nonce and every later
 * fixture's address stay as they were), and the runtime code it returns, which holds the immutable, is placed
 * at its canonical address. Reproducing the mainnet CREATE2 deployment is not possible: these are our own
 * contracts, not the audited bytecode. The escrow's code hash goes in the manifest: what the API checks the
 * escrow's code against at start before it offers the scheme.
 */
export async function seedBatchSettlement(
  ctx: SeedContext,
): Promise<{ contracts: Record<keyof typeof batchSettlementAddresses, Address>; escrowCodeHash: Hex }> {
  const { x402BatchSettlement, erc3009DepositCollector } = batchSettlementAddresses;
  await placeFixture(ctx, "x402BatchSettlement", x402BatchSettlement);
  const { abi, bytecode } = artifactOf(ctx.artifacts, "ERC3009DepositCollector");
  const { data: runtime } = await ctx.client.call({
    data: encodeDeployData({ abi: abi as Abi, bytecode, args: [x402BatchSettlement] }),
  });
  if (!runtime) throw new Error("ERC3009DepositCollector's constructor returned no code");
  await ctx.client.setCode({ address: erc3009DepositCollector, bytecode: runtime });
  const escrowCode = await ctx.client.getCode({ address: x402BatchSettlement });
  if (!escrowCode) throw new Error("x402BatchSettlement's code was not placed");
  return { contracts: { ...batchSettlementAddresses }, escrowCodeHash: keccak256(escrowCode) };
}
