import { type Abi, type Address, type Chain, createTestClient, defineChain, type Hex, http, publicActions, walletActions } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { base } from "viem/chains";
import { type Artifacts, artifactOf } from "./compile";

/** Base (viem's `base` chain) as served by a local anvil. */
export function devnetChain(rpcUrl: string): Chain {
  return defineChain({ ...base, rpcUrls: { default: { http: [rpcUrl] } } });
}

/** A viem client that can read, send as `privateKey`, and use anvil's cheat methods. */
export function createDevnetClient(rpcUrl: string, privateKey: Hex) {
  return createTestClient({
    mode: "anvil",
    chain: devnetChain(rpcUrl),
    transport: http(rpcUrl),
    account: privateKeyToAccount(privateKey),
    pollingInterval: 100,
  })
    .extend(publicActions)
    .extend(walletActions);
}

export type DevnetClient = ReturnType<typeof createDevnetClient>;

/** What every seeding step is handed. */
export type SeedContext = {
  client: DevnetClient;
  artifacts: Artifacts;
};

/** Deploys a compiled fixture with constructor args and waits for it to be mined. */
export async function deployFixture(ctx: SeedContext, name: string, args: readonly unknown[] = []): Promise<Address> {
  const { abi, bytecode } = artifactOf(ctx.artifacts, name);
  const hash = await ctx.client.deployContract({ abi: abi as Abi, bytecode, args: args as unknown[] });
  const receipt = await ctx.client.waitForTransactionReceipt({ hash });
  if (receipt.status !== "success" || !receipt.contractAddress) throw new Error(`deploying ${name} failed`);
  return receipt.contractAddress;
}

/**
 * Places a fixture's runtime code at a fixed address (as Base has it), without running its
 * constructor: storage must then be initialised by a call.
 */
export async function placeFixture(ctx: SeedContext, name: string, at: Address): Promise<Address> {
  await ctx.client.setCode({ address: at, bytecode: artifactOf(ctx.artifacts, name).deployedBytecode });
  return at;
}

/** Sends a write and waits for success; a revert throws with the function's name. */
export async function send(
  ctx: SeedContext,
  request: { address: Address; abi: Abi; functionName: string; args?: readonly unknown[]; value?: bigint },
): Promise<void> {
  const hash = await ctx.client.writeContract({
    ...request,
    args: (request.args ?? []) as unknown[],
  } as Parameters<DevnetClient["writeContract"]>[0]);
  const receipt = await ctx.client.waitForTransactionReceipt({ hash });
  if (receipt.status !== "success") throw new Error(`${request.functionName} on ${request.address} reverted`);
}
