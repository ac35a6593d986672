import { createRequire } from "node:module";
import { type Abi, type Address, getAddress, type Hex } from "viem";
import type { DevnetClient } from "../../devnet/client";

/** A contract wallet that accepts its owner's signatures (ERC-1271), and a CREATE2 factory for it. */
const source = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
contract OwnedWallet {
    address public immutable owner;
    constructor(address o) { owner = o; }
    function isValidSignature(bytes32 hash, bytes calldata sig) external view returns (bytes4) {
        if (sig.length != 65) return 0xffffffff;
        bytes32 r = bytes32(sig[0:32]);
        bytes32 s = bytes32(sig[32:64]);
        uint8 v = uint8(sig[64]);
        return ecrecover(hash, v, r, s) == owner ? bytes4(0x1626ba7e) : bytes4(0xffffffff);
    }
}
contract OwnedWalletFactory {
    function deploy(address o, bytes32 salt) external returns (address) {
        return address(new OwnedWallet{salt: salt}(o));
    }
}`;

export type Compiled = { abi: Abi; bytecode: Hex };
export type OwnedWalletArtifacts = { OwnedWallet: Compiled; OwnedWalletFactory: Compiled };

let compiled: OwnedWalletArtifacts | undefined;

/** The ERC-1271 wallet and its factory, compiled with solc once per test file. */
export function ownedWalletArtifacts(): OwnedWalletArtifacts {
  if (compiled) return compiled;
  const solc = createRequire(import.meta.url)("solc") as { compile(input: string): string };
  const output = JSON.parse(
    solc.compile(
      JSON.stringify({
        language: "Solidity",
        sources: { "OwnedWallet.sol": { content: source } },
        settings: { evmVersion: "prague", outputSelection: { "*": { "*": ["abi", "evm.bytecode.object"] } } },
      }),
    ),
  ) as {
    errors?: { severity: string; formattedMessage: string }[];
    contracts: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string } } }>>;
  };
  const errors = (output.errors ?? []).filter((e) => e.severity === "error");
  if (errors.length > 0) throw new Error(errors.map((e) => e.formattedMessage).join("\n"));
  const contracts = output.contracts["OwnedWallet.sol"] ?? {};
  const artifact = (name: string): Compiled => {
    const c = contracts[name];
    if (!c) throw new Error(`solc did not compile ${name}`);
    return { abi: c.abi, bytecode: `0x${c.evm.bytecode.object}` };
  };
  compiled = { OwnedWallet: artifact("OwnedWallet"), OwnedWalletFactory: artifact("OwnedWalletFactory") };
  return compiled;
}

/** Deploys `name` with `args` from `client`; its address once mined. */
export async function deployOwnedWalletContract(
  client: DevnetClient,
  name: keyof OwnedWalletArtifacts,
  args: readonly unknown[],
): Promise<Address> {
  const { abi, bytecode } = ownedWalletArtifacts()[name];
  const hash = await client.deployContract({ abi, bytecode, args, account: client.account, chain: client.chain });
  const receipt = await client.waitForTransactionReceipt({ hash });
  return getAddress(receipt.contractAddress as Address);
}
