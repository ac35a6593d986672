import { type Address, encodeAbiParameters, erc20Abi, type Hex, keccak256, type TransactionReceipt, toHex } from "viem";
import { baseUsdc } from "../../base/baseChain";
import { createDevnetClient } from "../../devnet/client";
import type { Manifest } from "../../devnet/manifest";
import { testClient } from "./testClient";

/** Devnet USDC held by `holder` (atomic units). */
export function usdcBalance(manifest: Manifest, holder: Address): Promise<bigint> {
  return testClient(manifest).readContract({ address: baseUsdc, abi: erc20Abi, functionName: "balanceOf", args: [holder] });
}

/** Sends `units` of devnet USDC from `privateKey`'s account to `to`; the receipt once mined. */
export async function payUsdc(manifest: Manifest, privateKey: Hex, to: Address, units: bigint): Promise<TransactionReceipt> {
  const client = createDevnetClient(manifest.rpcUrl, privateKey);
  const hash = await client.writeContract({ address: baseUsdc, abi: erc20Abi, functionName: "transfer", args: [to, units] });
  return client.waitForTransactionReceipt({ hash });
}

/** FiatTokenV2 keeps balanceOf at slot 8. */
const usdcBalanceSlot = 8n;

/** Writes `amount` into `holder`'s devnet USDC balance (no transaction: no sender's nonce is shared), and checks it reads back. */
export async function giveUsdc(manifest: Manifest, holder: Address, amount: bigint) {
  const client = testClient(manifest);
  const slot = keccak256(encodeAbiParameters([{ type: "address" }, { type: "uint256" }], [holder, usdcBalanceSlot]));
  await client.setStorageAt({ address: baseUsdc, index: slot, value: toHex(amount, { size: 32 }) });
  if ((await usdcBalance(manifest, holder)) !== amount) throw new Error(`USDC balance slot is not ${usdcBalanceSlot}`);
}

/** Transfer events of devnet USDC from `from` in blocks after `sinceBlock`. */
export async function usdcTransfersFrom(manifest: Manifest, from: Address, sinceBlock: bigint) {
  return testClient(manifest).getContractEvents({
    address: baseUsdc,
    abi: erc20Abi,
    eventName: "Transfer",
    args: { from },
    fromBlock: sinceBlock + 1n,
  });
}
