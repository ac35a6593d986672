import {
  type Address,
  encodeDeployData,
  encodeFunctionData,
  getContractAddress,
  type Hex,
  keccak256,
  serializeErc6492Signature,
  stringToHex,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { RpcProvider } from "../../api/chain/providers";
import type { IntentEnvelope, IssuedKey } from "../../api/keys/records";
import { publicDevnetProvider, testClient, testManifest } from "../support/devnet";
import { deployOwnedWalletContract, ownedWalletArtifacts } from "../support/ownedWallet";
import { type RpcProxy, startRpcProxy } from "../support/rpcProxy";
import { accessApp, type Backend, backendNames, openBackend, post } from "./support";

/** This file deploys and signs as users[10] (other files use users[6..9]; limits.test.ts only signs as users[10]). */
const manifest = testManifest();
const userIndex = 10;
const owner = manifest.accounts.users[userIndex] as { address: Address; privateKey: Hex };
const stranger = manifest.accounts.users[6] as { address: Address; privateKey: Hex };

let deployedWallet: Address;
let factory: Address;
/** Three public providers in front of the devnet (no trusted primary), as real proxy processes. */
const proxies: RpcProxy[] = [];
afterAll(() => Promise.all(proxies.map((p) => p.stop())));

beforeAll(async () => {
  const client = testClient(manifest, userIndex + 3);
  deployedWallet = await deployOwnedWalletContract(client, "OwnedWallet", [owner.address]);
  factory = await deployOwnedWalletContract(client, "OwnedWalletFactory", []);
  for (let i = 0; i < 3; i++) proxies.push(await startRpcProxy(manifest.rpcUrl));
});

describe.each(backendNames)("smart-contract wallets on %s", (backendName) => {
  let backend: Backend;
  beforeAll(async () => {
    backend = await openBackend(backendName);
  });
  afterAll(() => backend.close());

  async function claimFor(wallet: Address, signature: (message: string) => Promise<Hex>, providers?: RpcProvider[]) {
    const app = accessApp(manifest, backend, providers ? { providers } : {}).app;
    const envelope = (await (await post(app, "/v1/subscribe/free/challenge", { userWallet: wallet })).json()) as IntentEnvelope;
    return post(app, "/v1/subscribe/free/claim", {
      intentId: envelope.intent.intentId,
      signature: await signature(envelope.intent.messageToSign),
    });
  }

  test("error: a deployed ERC-1271 wallet refuses a stranger's signature (401)", async () => {
    const res = await claimFor(deployedWallet, (message) => privateKeyToAccount(stranger.privateKey).signMessage({ message }));
    expect(res.status).toBe(401);
  });

  test("default: a deployed ERC-1271 wallet claims with its owner's signature", async () => {
    const res = await claimFor(deployedWallet, (message) => privateKeyToAccount(owner.privateKey).signMessage({ message }));
    expect(res.status, await res.clone().text()).toBe(200);
    expect(((await res.json()) as IssuedKey).wallet).toBe(deployedWallet);
  });

  test("default: an undeployed ERC-6492 wallet claims with its owner's wrapped signature", async () => {
    const salt = keccak256(stringToHex(`svc-6492-${backendName}-${Date.now()}`));
    const { OwnedWallet: wallet, OwnedWalletFactory } = ownedWalletArtifacts();
    const counterfactual = getContractAddress({
      opcode: "CREATE2",
      from: factory,
      salt,
      bytecode: encodeDeployData({ abi: wallet.abi, bytecode: wallet.bytecode, args: [owner.address] }),
    });
    expect(await testClient(manifest).getCode({ address: counterfactual })).toBeUndefined();
    const factoryAbi = OwnedWalletFactory.abi;
    const res = await claimFor(counterfactual, async (message) =>
      serializeErc6492Signature({
        address: factory,
        data: encodeFunctionData({ abi: factoryAbi, functionName: "deploy", args: [owner.address, salt] }),
        signature: await privateKeyToAccount(owner.privateKey).signMessage({ message }),
      }),
    );
    expect(res.status, await res.clone().text()).toBe(200);
    expect(((await res.json()) as IssuedKey).wallet).toBe(counterfactual);
  });

  test("error: no single public provider decides a signature: a liar answering every eth_call with true is outvoted or refused", async () => {
    const publicProviders = proxies.map((p, i) => publicDevnetProvider(p.url, `public-${i}`));
    const strangerSigns = (message: string) => privateKeyToAccount(stranger.privateKey).signMessage({ message });
    const victim = "0x000000000000000000000000000000000000dEaD";
    // All honest: the quorum says the signature is not the wallet's.
    expect((await claimFor(victim, strangerSigns, publicProviders)).status).toBe(401);
    await proxies[0]?.setMode("lie-call");
    try {
      const lied = await claimFor(victim, strangerSigns, publicProviders);
      expect(lied.status).toBe(503);
      expect(await lied.json()).toMatchObject({ error: "DATA_SOURCE_UNAVAILABLE", retryable: true });
      // The liar alone: no public quorum, so no answer at all.
      const alone = await claimFor(victim, strangerSigns, publicProviders.slice(0, 1));
      expect(alone.status).toBe(503);
    } finally {
      await proxies[0]?.setMode("pass");
    }
    // An EOA's own signature needs no provider at all.
    const down = [{ name: "down", url: "http://127.0.0.1:1", trusted: false }];
    const own = await claimFor(stranger.address, strangerSigns, down);
    expect([200, 409]).toContain(own.status);
  });
});
