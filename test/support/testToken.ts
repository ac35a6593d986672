import { type Abi, type Address, erc20Abi, getAddress, maxUint256 } from "viem";
import type { DevnetClient } from "../../devnet/client";
import { artifactOf, compileFixtures } from "../../devnet/compile";

/**
 * A fresh 18-decimal ERC-20 (the TrackedToken fixture at a new address, tracked by nobody) deployed and
 * held by `client`'s account, which lets `spender` spend it: tokens for pools a test makes its own.
 */
export async function deployTestToken(client: DevnetClient, symbol: string, spender: Address): Promise<Address> {
  const { abi, bytecode } = artifactOf(compileFixtures(), "TrackedToken");
  const deployed = await client.waitForTransactionReceipt({ hash: await client.deployContract({ abi: abi as Abi, bytecode }) });
  if (!deployed.contractAddress) throw new Error(`deploying ${symbol} failed`);
  const address = getAddress(deployed.contractAddress);
  const me = client.account.address;
  const calls = [
    { abi, functionName: "initialize", args: [`Test ${symbol}`, symbol, 18, me] },
    { abi, functionName: "mint", args: [me, 10n ** 36n] },
    { abi: erc20Abi, functionName: "approve", args: [spender, maxUint256] },
  ] as const;
  for (const call of calls) {
    const hash = await client.writeContract({ address, ...call } as Parameters<DevnetClient["writeContract"]>[0]);
    await client.waitForTransactionReceipt({ hash });
  }
  return address;
}
