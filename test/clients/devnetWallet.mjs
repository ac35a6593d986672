// A devnet wallet for the Python client's tests (Python's standard library cannot sign secp256k1):
// `node devnetWallet.mjs <command> <privateKey> [rpcUrl]` reads a JSON argument on stdin and prints the result.
// Commands: personal_sign {message}, sign_typed_data {eth_signTypedData_v4 JSON}, pay_usdc {usdc, to, units}.
import { readFileSync } from "node:fs";
import { createWalletClient, erc20Abi, http, publicActions } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { base } from "viem/chains";

const [command, privateKey, rpcUrl] = process.argv.slice(2);
const input = JSON.parse(readFileSync(0, "utf8"));
const account = privateKeyToAccount(privateKey);

if (command === "personal_sign") {
  process.stdout.write(await account.signMessage({ message: input.message }));
} else if (command === "sign_typed_data") {
  const { EIP712Domain: _, ...types } = input.types;
  const uints = new Set(Object.values(types).flatMap((fields) => fields.filter((f) => f.type.startsWith("uint")).map((f) => f.name)));
  const message = Object.fromEntries(Object.entries(input.message).map(([k, v]) => [k, uints.has(k) ? BigInt(v) : v]));
  process.stdout.write(await account.signTypedData({ domain: input.domain, types, primaryType: input.primaryType, message }));
} else if (command === "pay_usdc") {
  const wallet = createWalletClient({ account, chain: base, transport: http(rpcUrl) }).extend(publicActions);
  const hash = await wallet.writeContract({
    address: input.usdc,
    abi: erc20Abi,
    functionName: "transfer",
    args: [input.to, BigInt(input.units)],
  });
  await wallet.waitForTransactionReceipt({ hash, pollingInterval: 100 });
  process.stdout.write(hash);
} else {
  throw new Error(`unknown command ${command}`);
}
